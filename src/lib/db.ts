import { createTableRelationsHelpers, type ExtractTablesWithRelations, extractTablesRelationalConfig, type RelationalSchemaConfig } from 'drizzle-orm';
import { DrizzleD1Database, SQLiteD1Session } from 'drizzle-orm/d1';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import * as schema from '../db/schema';

type Schema = typeof schema;
export type Db = DrizzleD1Database<Schema>;

// A request reads D1 through sessions of its own (middleware/d1-session.ts), so it needs a drizzle
// database of its own too. drizzle() would work out the schema's relational config for each one,
// which was a tenth of a write's CPU; the config and the dialect depend on nothing per request, so
// they are made once here and each database is put together as drizzle() does (drizzle-orm 0.45).
type Relational = RelationalSchemaConfig<ExtractTablesWithRelations<Schema>>;
let shared: { dialect: SQLiteAsyncDialect; relational: Relational } | undefined;

function sharedParts() {
  if (!shared) {
    const config = extractTablesRelationalConfig<ExtractTablesWithRelations<Schema>>(schema, createTableRelationsHelpers);
    shared = { dialect: new SQLiteAsyncDialect(), relational: { fullSchema: schema, schema: config.tables, tableNamesMap: config.tableNamesMap } };
  }
  return shared;
}

const instances = new WeakMap<D1Database, Db>();
const clients = new WeakMap<Db, D1Database>();

/** The D1 database (or request session) a Db made by createDb sends its statements to. */
export function clientOf(db: Db): D1Database {
  const d1 = clients.get(db);
  if (!d1) throw new Error('clientOf: a Db made by createDb');
  return d1;
}

export function createDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    const { dialect, relational } = sharedParts();
    const session = new SQLiteD1Session<Schema, ExtractTablesWithRelations<Schema>>(d1, dialect, relational, {});
    db = new DrizzleD1Database<Schema>('async', dialect, session, relational);
    instances.set(d1, db);
    clients.set(db, d1);
  }
  return db;
}
