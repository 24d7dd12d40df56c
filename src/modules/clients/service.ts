// Clients: the people and companies a workspace bills. Every query is scoped to the workspace, and
// every change writes its event in the same batch.
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { clients, invoices, projects, quotes, recurringInvoices } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { listed, type Referrer, referencesOf, unreferenced } from '../../lib/referenced-by';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { updateWithEvent } from '../events/update-with-event';
import { getWorkspace } from '../workspaces/settings';
import type { ClientFilter, CreateClientInput, UpdateClientInput } from './schemas';

export type ClientRow = typeof clients.$inferSelect;

export const serializeClient = (row: ClientRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  company: row.company,
  phone: row.phone,
  address: {
    line1: row.addressLine1,
    line2: row.addressLine2,
    city: row.addressCity,
    region: row.addressRegion,
    postal_code: row.addressPostalCode,
    country: row.addressCountry,
  },
  currency: row.currency,
  tax_id: row.taxId,
  vat_id: row.taxId,
  peppol_id: row.peppolId,
  buyer_reference: row.buyerReference,
  tax_treatment: row.taxTreatment,
  notes: row.notes,
  locale: row.locale,
  status: row.status,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** Columns from a create or patch body; keys absent from the body stay absent (a patch leaves them alone). */
function toColumns(input: UpdateClientInput): Partial<ClientRow> {
  const columns: Partial<ClientRow> = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.email !== undefined) columns.email = input.email;
  if (input.company !== undefined) columns.company = input.company;
  if (input.phone !== undefined) columns.phone = input.phone;
  if (input.currency !== undefined) columns.currency = input.currency;
  if (input.tax_id !== undefined) columns.taxId = input.tax_id;
  if (input.vat_id !== undefined) columns.taxId = input.vat_id;
  if (input.peppol_id !== undefined) columns.peppolId = input.peppol_id;
  if (input.buyer_reference !== undefined) columns.buyerReference = input.buyer_reference;
  if (input.tax_treatment !== undefined) columns.taxTreatment = input.tax_treatment;
  if (input.notes !== undefined) columns.notes = input.notes;
  if (input.locale !== undefined) columns.locale = input.locale;
  if (input.status !== undefined) columns.status = input.status;
  if (input.address !== undefined) {
    // Replacing the address replaces all of it: a field left out is cleared.
    const a = input.address ?? {};
    Object.assign(columns, {
      addressLine1: a.line1 ?? null,
      addressLine2: a.line2 ?? null,
      addressCity: a.city ?? null,
      addressRegion: a.region ?? null,
      addressPostalCode: a.postal_code ?? null,
      addressCountry: a.country ?? null,
    });
  }
  return columns;
}

export async function createClient(ctx: ServiceContext, input: CreateClientInput): Promise<ClientRow> {
  const now = nowIso();
  // The workspace's copy in its own database holds its settings (workspaces/mirror.ts); read only
  // when the body leaves the currency to the workspace.
  const currency = input.currency ?? (await getWorkspace(ctx)).defaultCurrency;
  const row: ClientRow = {
    id: newId('client'), userId: ctx.userId, workspaceId: ctx.workspaceId, name: input.name, email: null, company: null,
    phone: null, addressLine1: null, addressLine2: null, addressCity: null, addressRegion: null, addressPostalCode: null,
    addressCountry: null, currency, taxId: null, peppolId: null, buyerReference: null, notes: null, locale: null, status: 'active', createdAt: now, updatedAt: now,
    taxTreatment: 'auto', ...toColumns(input),
  };
  await ctx.db.batch([ctx.db.insert(clients).values(row), recordEvent(ctx, 'client.created', serializeClient(row))]);
  return row;
}

export async function listClients(ctx: WorkspaceContext, filter: ClientFilter & { beforeId?: string }) {
  const pattern = filter.q ? `%${escapeLike(filter.q)}%` : undefined;
  return ctx.db
    .select()
    .from(clients)
    .where(
      and(
        inWorkspace(ctx, clients),
        filter.status ? eq(clients.status, filter.status) : undefined,
        pattern ? or(sql`${clients.name} LIKE ${pattern} ESCAPE '\\'`, sql`${clients.email} LIKE ${pattern} ESCAPE '\\'`) : undefined,
        filter.beforeId ? lt(clients.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(clients.id))
    .limit(filter.limit + 1);
}

export async function getClient(ctx: WorkspaceContext, id: string): Promise<ClientRow> {
  const row = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, id), inWorkspace(ctx, clients)) });
  if (!row) throw notFound('Client');
  return row;
}

export async function updateClient(ctx: ServiceContext, id: string, input: UpdateClientInput): Promise<ClientRow> {
  return updateWithEvent(ctx, {
    what: 'client', table: clients, type: 'client.updated', serialize: serializeClient,
    read: () => getClient(ctx, id),
    change: () => toColumns(input),
  });
}

/**
 * What keeps a client: its documents, and its projects (whose time entries and expenses are billed
 * to it; deleted with it they would lose their client). Credit notes name a client too, but only
 * beside an invoice that is never deleted.
 */
const CLIENT_REFERRERS: Referrer[] = [
  { what: 'invoices', table: invoices, column: invoices.clientId },
  { what: 'quotes', table: quotes, column: quotes.clientId },
  { what: 'recurring invoices', table: recurringInvoices, column: recurringInvoices.clientId },
  { what: 'projects', table: projects, column: projects.clientId },
];

export async function deleteClient(ctx: ServiceContext, id: string): Promise<void> {
  await retryOnRace('client', async () => {
    const before = await getClient(ctx, id);
    // One guarded statement, so a reference created meanwhile cannot slip in between check and delete.
    const [deleted] = await ctx.db.batch([
      ctx.db.delete(clients).where(and(eq(clients.id, id), inWorkspace(ctx, clients), unreferenced(ctx.db, CLIENT_REFERRERS, id))),
      recordEvent(ctx, 'client.deleted', serializeClient(before), { ifChanged: true }),
    ]);
    if (changedRows(deleted) > 0) return true;
    const references = await referencesOf(ctx.db, CLIENT_REFERRERS, id);
    if (references.length) throw new ApiError('conflict', `This client has ${listed(references)}; archive it instead (PATCH status "archived").`);
    return undefined; // gone meanwhile (the next read says 404), or its last reference went: try again
  });
}

/** LIKE treats % and _ as wildcards; a search for "50%" means the text "50%". */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
