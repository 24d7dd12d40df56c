// The records of a period, read a page at a time so that a year of a busy workspace never sits in memory whole:
// each kind walked in (date, id) order from the index that starts with its workspace and date (the dashboard's
// covering indexes), a page ending where the next one starts. Plain SQL on the D1 binding, rows as arrays: an
// export reads tens of thousands of them.
import type { WorkspaceContext } from '../../lib/context';
import { clientOf } from '../../lib/db';
import type { Period } from './period';

export type { Period };

export const PAGE_SIZE = 1000;

export type Row = unknown[];
type Cursor = { date: string; id: string } | null;

/** Every row of a keyset walk, a page at a time; `date` and `id` are each row's first two columns. */
export async function* walk(ctx: WorkspaceContext, sql: string, period: Period, pageSize = PAGE_SIZE): AsyncGenerator<Row[]> {
  const d1 = clientOf(ctx.db);
  let cursor: Cursor = null;
  for (;;) {
    const after: { date: string; id: string } = cursor ?? { date: period.from, id: '' };
    const rows: Row[] = await d1.prepare(sql).bind(ctx.workspaceId, after.date, period.to, after.date, after.id, pageSize).raw();
    if (rows.length) yield rows;
    if (rows.length < pageSize) return;
    const last: Row = rows[rows.length - 1]!;
    cursor = { date: last[0] as string, id: last[1] as string };
  }
}

/** The period's bounds and the keyset condition, (date, id) after the cursor's; ?6 is the page size. */
export const keyset = (date: string, id: string) => `${date} >= ?2 AND ${date} <= ?3 AND (${date} > ?4 OR ${id} > ?5)`;

