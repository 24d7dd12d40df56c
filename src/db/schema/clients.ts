import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { users, workspaceColumn } from './workspaces';

/** §20: a client's tax treatment, what its lines that name no tax take (modules/documents/tax-treatment.ts). */
export const TAX_TREATMENTS = ['auto', 'standard', 'reverse_charge', 'intra_community', 'export', 'exempt', 'not_subject'] as const;

export const clients = sqliteTable(
  'clients',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    name: text('name').notNull(),
    email: text('email'),
    company: text('company'),
    phone: text('phone'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    addressCity: text('address_city'),
    addressRegion: text('address_region'),
    addressPostalCode: text('address_postal_code'),
    addressCountry: text('address_country'),
    currency: text('currency').notNull().default('USD'),
    taxId: text('tax_id'),
    notes: text('notes'),
    status: text('status', { enum: ['active', 'archived'] }).notNull().default('active'),
    ...timestamps,
    // §15: the client's Peppol participant id ("0088:5790000435975") and the reference its invoices
    // quote (BT-10, a German Leitweg-ID). Its VAT id is tax_id.
    peppolId: text('peppol_id'),
    buyerReference: text('buyer_reference'),
    taxTreatment: text('tax_treatment', { enum: TAX_TREATMENTS }).notNull().default('auto'),
    // §20: the language and formats of the client's documents (a BCP 47 locale); null: the workspace's.
    locale: text('locale'),
  },
  (t) => [index('clients_workspace_idx').on(t.workspaceId, t.id), index('clients_workspace_status_idx').on(t.workspaceId, t.status, t.id)],
);
