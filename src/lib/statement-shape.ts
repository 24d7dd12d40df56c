// Statements whose SQL text depends only on their shape. drizzle builds a statement's text anew each
// time it is sent, walking every nested fragment and column, which was the largest share of a
// write's own CPU; a hot statement is built once per isolate instead, with sql.placeholder where its
// values go, and each call binds its own values. drizzle's prepare() cannot serve here: a prepared
// query belongs to one database (each request has D1 sessions of its own), and db.batch binds a
// query's parameters without filling its placeholders.
import { fillPlaceholders, type Query } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { clientOf, createDb, type Db } from './db';

/** What drizzle's D1 batch asks of each item once prepared (drizzle-orm 0.45, d1/session.js). */
type PreparedItem = { getQuery(): Query; mapResult(result: unknown, isFromBatch?: boolean): unknown };

export type StatementShape<T> = {
  /** The statement with `values` in its placeholders, for db.batch (results mapped as drizzle's own); never awaited alone. */
  with(db: Db, values: Record<string, unknown>): T;
  /** The same as a plain D1 statement: for a batch hook, or to run alone (a list, mapped by lib/table-rows.ts). */
  on(d1: D1Database, values: Record<string, unknown>): D1PreparedStatement;
};

/** `build(db)` names its varying values with sql.placeholder(name); it runs once, on first use. */
export function statementShape<T extends BatchItem<'sqlite'>>(build: (db: Db) => T): StatementShape<T> {
  let shape: { query: Query; mapResult: PreparedItem['mapResult'] } | undefined;
  // Built on a drizzle database of the first caller's; a plain D1 caller's is made only for that.
  const shaped = (db: () => Db) => {
    if (!shape) {
      const prepared = (build(db()) as unknown as { _prepare(): PreparedItem })._prepare();
      shape = { query: prepared.getQuery(), mapResult: (result, isFromBatch) => prepared.mapResult(result, isFromBatch) };
    }
    return shape;
  };
  return {
    with(db, values) {
      const { query, mapResult } = shaped(() => db);
      const bound = { sql: query.sql, params: fillPlaceholders(query.params, values) };
      const stmt = clientOf(db).prepare(bound.sql);
      return { _prepare: () => ({ getQuery: () => bound, stmt, mapResult }) } as unknown as T;
    },
    on(d1, values) {
      const { query } = shaped(() => createDb(d1));
      return d1.prepare(query.sql).bind(...fillPlaceholders(query.params, values));
    },
  };
}

/** Statement shapes that differ by `key` (a number drawn or given, a count of lines): one per key, each built on first use. */
export function statementShapes<K, T extends BatchItem<'sqlite'>>(build: (db: Db, key: K) => T): (key: K) => StatementShape<T> {
  const shapes = new Map<K, StatementShape<T>>();
  return (key) => {
    let shape = shapes.get(key);
    if (!shape) shapes.set(key, (shape = statementShape((db) => build(db, key))));
    return shape;
  };
}
