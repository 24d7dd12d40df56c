import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../db/schema';

export type Db = ReturnType<typeof createDb>;

// drizzle() is a thin wrapper; keep one per D1 binding instead of one per request.
const instances = new WeakMap<D1Database, ReturnType<typeof drizzle<typeof schema>>>();

export function createDb(d1: D1Database) {
  let db = instances.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    instances.set(d1, db);
  }
  return db;
}
