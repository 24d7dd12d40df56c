// The update of a workspace record that says exactly what it did: read the record, compute what
// it becomes, and write it guarded on the updated_at that was read, in one batch with its
// `*.updated` event (the record as it now is, and the previous values of what changed). If another
// request changed the record in between, the guard matches nothing, nothing is written, and the
// whole read-compute-write runs again.
import { and, eq, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { ServiceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { changedAttributes, recordEvent } from './record';
import type { EventObject, EventType } from './types';

type RecordTable = SQLiteTable & { id: SQLiteColumn; workspaceId: SQLiteColumn; updatedAt: SQLiteColumn };
type RecordRow = { id: string; updatedAt: string };

export async function updateWithEvent<Row extends RecordRow>(
  ctx: ServiceContext,
  spec: {
    /** What the record is, for the message when races keep being lost ("client"). */
    what: string;
    table: RecordTable;
    type: EventType;
    /** The record as it is now (404 when it is not the workspace's). */
    read: () => Promise<Row>;
    /** The columns to change, from the record as read; may throw a 4xx about the result. */
    change: (before: Row) => Partial<Row>;
    /** A condition of the write beside "unchanged since read" (no rows naming the record, say); when it fails, all runs again. */
    guard?: (before: Row) => SQL | undefined;
    serialize: (row: Row) => EventObject;
  },
): Promise<Row> {
  const { table } = spec;
  return retryOnRace(spec.what, async () => {
    const before = await spec.read();
    const set = { ...spec.change(before), updatedAt: nowIso() };
    const after: Row = { ...before, ...set };
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(table)
        // The table's own column types cannot be named for any table; `set` holds only its columns.
        .set(set as never)
        .where(and(eq(table.id, before.id), eq(table.workspaceId, ctx.workspaceId), eq(table.updatedAt, before.updatedAt), spec.guard?.(before))),
      recordEvent(ctx, spec.type, spec.serialize(after), {
        previous: changedAttributes(spec.serialize(before), spec.serialize(after)),
        ifChanged: true,
      }),
    ]);
    return changedRows(updated) > 0 ? after : undefined;
  });
}
