import { sql } from 'drizzle-orm';
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';

// The workspace a record belongs to. Migration 0006 added it to tables that already had rows, as a
// nullable column (SQLite cannot add a NOT NULL reference), backfilled every row and every write
// sets it; so the schema, and the types drizzle derives from it, treat it as NOT NULL.
export const workspaceColumn = () => text('workspace_id').notNull().references((): AnySQLiteColumn => workspaces.id, { onDelete: 'cascade' });

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  // Before workspaces: the user's invoice counter. Migration 0006 carried it over to the personal
  // workspace (workspaces.invoice_seq); nothing reads it since.
  invoiceSeq: integer('invoice_seq').notNull().default(0),
  createdAt: text('created_at').notNull(),
});

/** §20: what a workspace sells, which decides K or AE inside the EU and G or O outside it. */
export const SUPPLY_TYPES = ['services', 'goods'] as const;

export const workspaces = sqliteTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    // Set on the one personal workspace each user gets at signup; null on the ones made later.
    personalUserId: text('personal_user_id').unique().references(() => users.id, { onDelete: 'cascade' }),
    // The last default invoice number handed out (prefix + 000001 is 1); bumped in the same batch as the insert.
    invoiceSeq: integer('invoice_seq').notNull().default(0),
    invoicePrefix: text('invoice_prefix').notNull().default('INV-'),
    timeZone: text('time_zone').notNull().default('UTC'),
    locale: text('locale').notNull().default('en-US'),
    // JSON {legal_name, email, address:{…}, tax_id}, or null while unset.
    issuer: text('issuer'),
    paymentInstructions: text('payment_instructions'),
    remindersEnabled: integer('reminders_enabled', { mode: 'boolean' }).notNull().default(false),
    // JSON array of whole days after the due date, e.g. [3,10].
    reminderDays: text('reminder_days').notNull().default('[3,10]'),
    // ISO 4217: what a new client's `currency` defaults to.
    defaultCurrency: text('default_currency').notNull().default('USD'),
    ...timestamps,
    // The D1 binding that holds this workspace's records (src/lib/databases.ts); null means DB, where
    // every workspace made before there was a choice lives. Only the directory's copy is read for it.
    database: text('database'),
    /** Whether the hosted page's pay button lets the client choose an amount below what is due (§16). */
    paymentsAllowPartial: integer('payments_allow_partial', { mode: 'boolean' }).notNull().default(false),
    // §15: how a new invoice rounds its tax (copied onto it, and never changed on it after).
    taxRounding: text('tax_rounding', { enum: ['line', 'group'] }).notNull().default('line'),
    // §15: a sent invoice's PDF is the Factur-X PDF/A-3b when it is ready in CII (`facturx`), or always the plain one.
    einvoicePdf: text('einvoice_pdf', { enum: ['facturx', 'plain'] }).notNull().default('facturx'),
    // §17: credit notes have their own sequence (prefix + 000001 is 1), bumped like invoice_seq.
    creditNoteSeq: integer('credit_note_seq').notNull().default(0),
    creditNotePrefix: text('credit_note_prefix').notNull().default('CN-'),
    // §18: quotes have their own sequence, bumped in the batch that writes the quote, as invoices' is.
    quoteSeq: integer('quote_seq').notNull().default(0),
    quotePrefix: text('quote_prefix').notNull().default('QUO-'),
    // §20: when a default invoice or quote number is drawn: at creation (`create`, as always), or at
    // send, so numbers follow the order of sending (`send`; invoices/numbering.ts).
    numberAt: text('number_at', { enum: ['create', 'send'] }).notNull().default('create'),
    // §20: the rate (thousandths of a percent) a line naming no tax takes through its client's tax
    // treatment; null keeps the §15 defaults. What the workspace sells decides K/AE and G/O.
    defaultTaxRateMilli: integer('default_tax_rate_milli'),
    supplyType: text('supply_type', { enum: SUPPLY_TYPES }).notNull().default('services'),
    // §22: JSON {chart, consultant_number, client_number, fiscal_year_start, …account overrides} for the
    // DATEV export (workspaces/accounting.ts), or null while unset.
    accounting: text('accounting'),
  },
  (t) => [
    // §21: the workspace an e-invoice sent to a Peppol id is delivered to, found by its issuer's `peppol_id` (Peppol
    // ids compare without regard to case) on the directory, at the cost of one index seek.
    index('workspaces_issuer_peppol_idx').on(sql`lower(json_extract(${t.issuer}, '$.peppol_id'))`),
  ],
);

export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const memberships = sqliteTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('memberships_workspace_user_uq').on(t.workspaceId, t.userId), index('memberships_user_idx').on(t.userId)],
);
