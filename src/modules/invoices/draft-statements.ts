// The write batch of a new draft invoice, as statement shapes (lib/statement-shape.ts): the counter's
// bump, the invoice, its invoice.created event and its lines, each built by the same functions as
// every other write (numbering.ts, guarded-write.ts, events/record.ts, lines.ts, wrote-invoice.ts) but once per isolate
// and shape, with each request's values bound in. Building their SQL text anew was the largest part of
// a create's own CPU. A shape is fixed by whether the number is the caller's or the counter's next,
// and by the number of lines in a statement; test/invoices/draft-statements.test.ts checks that each
// is the statement the plain functions build (plainDraftStatements, which a draft another room
// guards is still written with: its guard has no shape).
import { and, getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { events, invoiceLineItems, invoices } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';
import { flatList, insertIf, previousChanged } from '../../lib/guarded-write';
import { statementShape, statementShapes } from '../../lib/statement-shape';
import { eventRow, fillPlaceholder, recordEvent } from '../events/record';
import type { EventObject } from '../events/types';
import { insertLineStatements, LINES_PER_STATEMENT, type LineRow } from './lines';
import { bumpCounter, currentDefaultNumber, type InvoiceNumber, numberIsFree } from './numbering';
import { wroteInvoice } from './wrote-invoice';
import type { InvoiceRow } from './serialize';

const placeholder = sql.placeholder;
const workspaceId = placeholder('workspaceId');

/** The number as the batch writes it: the caller's (bound), or the counter's current value, read in SQL. */
const numberOf = (explicit: boolean) => (explicit ? sql`${placeholder('number')}` : currentDefaultNumber({ workspaceId }));

/** A placeholder for each key, named as the key. */
const placeholdersFor = (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, placeholder(key)])) as Record<string, Placeholder>;

/** A value for each of `keys`, as insertIf gives them: a key the row leaves out takes its column's default, or null. */
const valuesOf = (row: Record<string, unknown>, keys: readonly string[], defaults: Record<string, { default?: unknown }> = {}, suffix = '') =>
  Object.fromEntries(keys.map((key) => [`${key}${suffix}`, row[key] !== undefined ? row[key] : (defaults[key]?.default ?? null)]));

const bump = statementShape((db) => bumpCounter({ db, workspaceId }));

const INVOICE_COLUMNS = getTableColumns(invoices);
const INVOICE_KEYS = Object.keys(INVOICE_COLUMNS);
const insertInvoice = statementShapes((db, explicit: boolean) => {
  const number = numberOf(explicit);
  const row = { ...placeholdersFor(INVOICE_KEYS), number } as unknown as typeof invoices.$inferInsert;
  return insertIf(db, invoices, row, numberIsFree({ db, workspaceId }, number)).returning({ number: invoices.number });
});

const EVENT_KEYS = ['id', 'workspaceId', 'type', 'actorType', 'actorId', 'actorName', 'objectId', 'createdAt'];
/** The event of a draft with no number yet (§20): its object says null, so nothing is filled in. */
const insertUnnumberedEvent = statementShape((db) =>
  insertIf(db, events, placeholdersFor([...EVENT_KEYS, 'summary', 'data']) as unknown as typeof events.$inferInsert, previousChanged));
const insertCreatedEvent = statementShapes((db, explicit: boolean) => {
  const number = numberOf(explicit);
  const summary = sql`replace(${placeholder('summary')}, ${fillPlaceholder('number')}, ${number})`;
  const data = sql`json_set(${placeholder('data')}, ${'$.object.number'}, ${number})`;
  return insertIf(db, events, { ...placeholdersFor(EVENT_KEYS), summary, data } as unknown as typeof events.$inferInsert, previousChanged);
});

// In the order of the table's columns, which INSERT … SELECT fills (as insertLineStatements writes them).
const LINE_KEYS = Object.keys(getTableColumns(invoiceLineItems));
/** `count` lines, written only if this batch wrote the invoice: insertLineStatements under wroteInvoice. */
const insertLines = statementShapes((db, count: number) => {
  const values = flatList(Array.from({ length: count }, (_, i) => sql`(${flatList(LINE_KEYS.map((key) => placeholder(`${key}${i}`)))})`));
  const written = wroteInvoice({ db }, placeholder('invoiceId'), placeholder('updatedAt'));
  return db.insert(invoiceLineItems).select(sql`SELECT * FROM (VALUES ${values}) WHERE ${written}`);
});

/**
 * A draft's statements built by the plain functions, each time: the invoice only if `onlyIf` holds
 * too (with `number`'s bump, held back with it), and its lines only if `written`, the batch having
 * written it.
 */
export function plainDraftStatements(ctx: WorkspaceContext, row: InvoiceRow, lines: LineRow[], object: EventObject, number: InvoiceNumber, written: SQL, onlyIf?: SQL) {
  return [
    ...number.before,
    insertIf(ctx.db, invoices, { ...row, number: number.value as unknown as string }, and(numberIsFree(ctx, number.value), onlyIf)!).returning({ number: invoices.number }),
    // An unnumbered draft's event keeps the object's null: its stored "number" is its id (numbering.ts).
    recordEvent(ctx, 'invoice.created', object, { ifChanged: true, fill: number.unnumbered ? undefined : { number: number.value } }),
    ...insertLineStatements(ctx.db, lines, written),
  ];
}

/**
 * The statements createInvoice sends for a draft numbered `explicit` (or the counter's next): the
 * bump (for the counter's), the invoice unless its number is taken (answering its number), its event
 * if it was written, and its lines if it was written. `unnumbered`: `explicit` is the draft's own id,
 * standing for no number yet (numbering.ts), which its event shows as null.
 */
export function draftStatements(ctx: WorkspaceContext, row: InvoiceRow, lines: LineRow[], object: EventObject, explicit: string | undefined, unnumbered = false) {
  const { db } = ctx;
  const given = explicit !== undefined;
  const number = { number: explicit, workspaceId: ctx.workspaceId };
  const event = eventRow(ctx, 'invoice.created', object, { fill: unnumbered ? undefined : { number: true } });
  const statements: BatchItem<'sqlite'>[] = [
    ...(given ? [] : [bump.with(db, number)]),
    insertInvoice(given).with(db, { ...valuesOf(row, INVOICE_KEYS, INVOICE_COLUMNS), ...number }),
    unnumbered
      ? insertUnnumberedEvent.with(db, valuesOf(event, [...EVENT_KEYS, 'summary', 'data']))
      : insertCreatedEvent(given).with(db, { ...valuesOf(event, EVENT_KEYS), summary: event.summary, data: event.data, ...number }),
  ];
  for (let i = 0; i < lines.length; i += LINES_PER_STATEMENT) {
    const chunk = lines.slice(i, i + LINES_PER_STATEMENT);
    const values = Object.assign({ invoiceId: row.id, updatedAt: row.updatedAt }, ...chunk.map((line, j) => valuesOf(line, LINE_KEYS, {}, String(j))));
    statements.push(insertLines(chunk.length).with(db, values));
  }
  return statements;
}
