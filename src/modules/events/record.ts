// The one event writer. recordEvent returns a statement that is not yet run: the caller puts it in
// the same db.batch as the change it describes, so the event exists if and only if the change
// happened (D1 runs a batch as one transaction). After a guarded UPDATE or DELETE, pass
// `{ ifChanged: true }`: the event is then written only when the statement just before it in the
// batch changed a row, so a lost race writes neither.
import { type SQL, sql } from 'drizzle-orm';
import { events } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';
import { insertIf, previousChanged } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { summarize } from './summary';
import type { EventObject, EventType } from './types';

export type EventOptions = {
  /** The changed fields' values before the change (every `*.updated` and `member.role_changed`). */
  previous?: Record<string, unknown>;
  /** Write only if the previous statement of the batch changed a row. */
  ifChanged?: boolean;
  /** When it happened; now by default. */
  at?: string;
  /** Records beside the object in `data` (`payment` on a payment event, `refund` on a refund's). */
  data?: Record<string, unknown>;
  /**
   * Fields of the object only the batch itself knows (an invoice number the same batch draws from
   * the workspace's counter): SQL expressions, evaluated when the event is written.
   */
  fill?: Record<string, SQL>;
  /** The same for fields of `data` beside the object, by JSON path (`$.credit_note.number`). */
  fillData?: Record<string, SQL>;
};

/**
 * The event's row as recordEvent writes it, before SQL fills anything in: a field named in `fill`
 * stands in the summary as `{{field}}` (see fillPlaceholder), for SQL to replace.
 */
export function eventRow(ctx: WorkspaceContext, type: EventType, object: EventObject, options: Pick<EventOptions, 'previous' | 'at' | 'data'> & { fill?: Record<string, unknown> } = {}) {
  const placeholders = Object.fromEntries(Object.keys(options.fill ?? {}).map((field) => [field, fillPlaceholder(field)]));
  return {
    id: newId('event'),
    workspaceId: ctx.workspaceId,
    type,
    actorType: ctx.actor.type,
    actorId: ctx.actor.id,
    actorName: ctx.actor.name,
    objectId: object.id,
    summary: summarize(type, { ...object, ...placeholders }),
    data: JSON.stringify({ ...(options.previous ? { object, previous_attributes: options.previous } : { object }), ...options.data }),
    createdAt: options.at ?? nowIso(),
  };
}

/** What stands for a filled-in field in an event's summary until SQL replaces it. */
export const fillPlaceholder = (field: string) => `{{${field}}}`;

export function recordEvent(ctx: WorkspaceContext, type: EventType, object: EventObject, options: EventOptions = {}) {
  const filled = Object.entries(options.fill ?? {});
  const row = eventRow(ctx, type, object, options);
  if (filled.length || options.fillData) {
    let summary = sql`${row.summary}`;
    let data = sql`${row.data}`;
    for (const [field, value] of filled) {
      summary = sql`replace(${summary}, ${fillPlaceholder(field)}, ${value})`;
      data = sql`json_set(${data}, ${`$.object.${field}`}, ${value})`;
    }
    for (const [path, value] of Object.entries(options.fillData ?? {})) data = sql`json_set(${data}, ${path}, ${value})`;
    const filledRow = { ...row, summary, data } as unknown as typeof events.$inferInsert;
    return insertIf(ctx.db, events, filledRow, options.ifChanged ? previousChanged : sql`1`);
  }
  if (!options.ifChanged) return ctx.db.insert(events).values(row);
  // changes() is the row count of the statement just before this one on the same connection: the
  // guarded write this event describes (rows changed by triggers are not counted in it), or the
  // event before this one, which was written only if its change happened.
  return insertIf(ctx.db, events, row, previousChanged);
}

/**
 * The fields of `after` whose value differs from `before`, with their values before: the
 * `previous_attributes` of an update. Compared as JSON, so nested objects (an address) count as
 * one field. `updated_at` is left out: it changes on every update and says nothing.
 */
export function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(after)) {
    if (field === 'updated_at') continue;
    if (JSON.stringify(before[field]) !== JSON.stringify(value)) previous[field] = before[field] ?? null;
  }
  return previous;
}
