// A workspace and its settings: read by any member, changed by an admin. Top-level fields merge;
// a nested object (issuer, reminders) sent is replaced whole.
import { and, desc, eq, lt } from 'drizzle-orm';
import { memberships, workspaces } from '../../db/schema';
import { notFound } from '../../errors';
import type { Role, ServiceContext, WorkspaceContext } from '../../lib/context';
import { DIRECTORY } from '../../lib/databases';
import { nowIso } from '../../lib/time';
import { fromScaledInteger, toScaledInteger } from '../../lib/money';
import { forgetWorkspaceKeys } from '../../middleware/key-lookup';
import { assertConvertible } from '../rates/convertible';
import { readAccounting, storeAccounting } from './accounting';
import { mirrorWorkspace } from './mirror';
import type { UpdateWorkspaceInput } from './types';
import { type LocalizedText, readLocalizedText, storeLocalizedText } from '../documents/localized-text';

export type WorkspaceRow = typeof workspaces.$inferSelect;

const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'region', 'postal_code', 'country'] as const;
type AddressValue = Record<(typeof ADDRESS_FIELDS)[number], string | null>;
export type IssuerValue = {
  legal_name: string | null; email: string | null; address: AddressValue; tax_id: string | null;
  // §15: VAT id (BT-31), registration id (BT-30), Peppol participant id, and the account paid into.
  vat_id: string | null; registration_id: string | null; peppol_id: string | null; iban: string | null; bic: string | null;
  // §20: printed at the foot of every document, in its language.
  legal_notes: LocalizedText | null;
  // §20: no VAT charged (§19 UStG, CGI art. 293 B).
  small_business: boolean;
};

const emptyAddress = () => Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, null])) as AddressValue;

export function issuerOf(row: Pick<WorkspaceRow, 'issuer'>): IssuerValue {
  const stored = row.issuer ? (JSON.parse(row.issuer) as Partial<IssuerValue>) : {};
  return {
    legal_name: stored.legal_name ?? null,
    email: stored.email ?? null,
    address: { ...emptyAddress(), ...stored.address },
    tax_id: stored.tax_id ?? null,
    vat_id: stored.vat_id ?? null,
    registration_id: stored.registration_id ?? null,
    peppol_id: stored.peppol_id ?? null,
    iban: stored.iban ?? null,
    bic: stored.bic ?? null,
    legal_notes: stored.legal_notes ?? null,
    small_business: stored.small_business ?? false,
  };
}

export const serializeWorkspace = (row: WorkspaceRow, role: Role) => ({
  id: row.id,
  name: row.name,
  role,
  time_zone: row.timeZone,
  locale: row.locale,
  invoice_prefix: row.invoicePrefix,
  credit_note_prefix: row.creditNotePrefix,
  quote_prefix: row.quotePrefix,
  default_currency: row.defaultCurrency,
  tax_rounding: row.taxRounding,
  issuer: issuerOf(row),
  payment_instructions: readLocalizedText(row.paymentInstructions),
  reminders: { enabled: row.remindersEnabled, days_after_due: JSON.parse(row.reminderDays) as number[] },
  payments_allow_partial: row.paymentsAllowPartial,
  einvoice_pdf: row.einvoicePdf,
  number_at: row.numberAt,
  default_tax_rate: row.defaultTaxRateMilli === null ? null : fromScaledInteger(row.defaultTaxRateMilli, 3),
  supply_type: row.supplyType,
  accounting: readAccounting(row.accounting),
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const DEFAULT_REMINDER_DAYS = [3, 10];

/** The workspace as its records' database has it: the directory's row on DB, the copy elsewhere. */
export async function getWorkspace(ctx: WorkspaceContext): Promise<WorkspaceRow> {
  const row = await ctx.db.query.workspaces.findFirst({ where: eq(workspaces.id, ctx.workspaceId) });
  if (!row) throw notFound('Workspace');
  return row;
}

export async function updateWorkspace(ctx: ServiceContext, input: UpdateWorkspaceInput): Promise<WorkspaceRow> {
  const set: Partial<WorkspaceRow> = { updatedAt: nowIso() };
  if (input.name !== undefined) set.name = input.name;
  if (input.time_zone !== undefined) set.timeZone = input.time_zone;
  if (input.locale !== undefined) set.locale = Intl.getCanonicalLocales(input.locale)[0]!;
  if (input.invoice_prefix !== undefined) set.invoicePrefix = input.invoice_prefix;
  if (input.credit_note_prefix !== undefined) set.creditNotePrefix = input.credit_note_prefix;
  if (input.quote_prefix !== undefined) set.quotePrefix = input.quote_prefix;
  if (input.default_currency !== undefined) {
    await assertConvertible(ctx.env, input.default_currency, 'default_currency');
    set.defaultCurrency = input.default_currency;
  }
  if (input.tax_rounding !== undefined) set.taxRounding = input.tax_rounding;
  if (input.payment_instructions !== undefined) set.paymentInstructions = storeLocalizedText(input.payment_instructions);
  if (input.payments_allow_partial !== undefined) set.paymentsAllowPartial = input.payments_allow_partial;
  if (input.einvoice_pdf !== undefined) set.einvoicePdf = input.einvoice_pdf;
  if (input.number_at !== undefined) set.numberAt = input.number_at;
  if (input.default_tax_rate !== undefined) set.defaultTaxRateMilli = input.default_tax_rate === null ? null : toScaledInteger(input.default_tax_rate, 3);
  if (input.supply_type !== undefined) set.supplyType = input.supply_type;
  if (input.accounting !== undefined) set.accounting = storeAccounting(input.accounting);
  if (input.issuer !== undefined) {
    const issuer = input.issuer;
    set.issuer = issuer
      ? JSON.stringify({
        legal_name: issuer.legal_name ?? null, email: issuer.email ?? null, address: { ...emptyAddress(), ...issuer.address }, tax_id: issuer.tax_id ?? null,
        vat_id: issuer.vat_id ?? null, registration_id: issuer.registration_id ?? null, peppol_id: issuer.peppol_id ?? null, iban: issuer.iban ?? null, bic: issuer.bic ?? null,
        legal_notes: issuer.legal_notes ?? null,
        small_business: issuer.small_business ?? false,
      })
      : null;
  }
  if (input.reminders !== undefined) {
    set.remindersEnabled = input.reminders.enabled ?? false;
    set.reminderDays = JSON.stringify([...(input.reminders.days_after_due ?? DEFAULT_REMINDER_DAYS)].sort((a, b) => a - b));
  }
  const [row] = await ctx.directory.update(workspaces).set(set).where(eq(workspaces.id, ctx.workspaceId)).returning();
  if (!row) throw notFound('Workspace');
  // The copy in the workspace's own database (mirror.ts) is what numbering, sending and the cron
  // read: it takes the whole row, so a copy an earlier failure left behind catches up here too.
  if (ctx.database !== DIRECTORY) await mirrorWorkspace(ctx.db, row);
  // Keys carry the workspace's time zone in their cached lookup.
  if (input.time_zone !== undefined) forgetWorkspaceKeys(ctx.workspaceId);
  return row;
}

/** The caller's workspaces, with their role in each, newest first. */
export async function listMyWorkspaces(ctx: ServiceContext, limit: number, beforeId?: string) {
  return ctx.directory
    .select({ workspace: workspaces, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.userId, ctx.userId), beforeId ? lt(workspaces.id, beforeId) : undefined))
    .orderBy(desc(workspaces.id))
    .limit(limit + 1);
}
