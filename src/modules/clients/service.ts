// Clients: the people and companies a user bills. Every query filters by owner.
import { and, desc, eq, lt, notExists, or, sql } from 'drizzle-orm';
import { clients, invoices } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
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
  notes: row.notes,
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
  if (input.notes !== undefined) columns.notes = input.notes;
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

export async function createClient(db: Db, userId: string, input: CreateClientInput): Promise<ClientRow> {
  const now = nowIso();
  const [row] = await db
    .insert(clients)
    .values({ currency: 'USD', ...toColumns(input), name: input.name, id: newId('client'), userId, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function listClients(db: Db, userId: string, filter: ClientFilter & { beforeId?: string }) {
  const pattern = filter.q ? `%${escapeLike(filter.q)}%` : undefined;
  return db
    .select()
    .from(clients)
    .where(
      and(
        eq(clients.userId, userId),
        filter.status ? eq(clients.status, filter.status) : undefined,
        pattern ? or(sql`${clients.name} LIKE ${pattern} ESCAPE '\\'`, sql`${clients.email} LIKE ${pattern} ESCAPE '\\'`) : undefined,
        filter.beforeId ? lt(clients.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(clients.id))
    .limit(filter.limit + 1);
}

export async function getClient(db: Db, userId: string, id: string): Promise<ClientRow> {
  const row = await db.query.clients.findFirst({ where: and(eq(clients.id, id), eq(clients.userId, userId)) });
  if (!row) throw notFound('Client');
  return row;
}

export async function updateClient(db: Db, userId: string, id: string, input: UpdateClientInput): Promise<ClientRow> {
  const [row] = await db
    .update(clients)
    .set({ ...toColumns(input), updatedAt: nowIso() })
    .where(and(eq(clients.id, id), eq(clients.userId, userId)))
    .returning();
  if (!row) throw notFound('Client');
  return row;
}

export async function deleteClient(db: Db, userId: string, id: string): Promise<void> {
  // One guarded statement, so an invoice created meanwhile cannot slip in between check and delete.
  const deleted = await db
    .delete(clients)
    .where(
      and(
        eq(clients.id, id),
        eq(clients.userId, userId),
        notExists(db.select({ one: sql`1` }).from(invoices).where(eq(invoices.clientId, id))),
      ),
    )
    .returning({ id: clients.id });
  if (deleted.length) return;
  await getClient(db, userId, id);
  throw new ApiError('conflict', 'This client has invoices; archive it instead (PATCH status "archived").');
}

/** LIKE treats % and _ as wildcards; a search for "50%" means the text "50%". */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
