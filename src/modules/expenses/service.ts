// Expenses: money spent on a project or on the business. A project_id must be one of the
// workspace's projects; every change writes its event.
import { and, desc, eq, gte, isNotNull, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { expenses, inboundDocuments } from '../../db/schema';
import { invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { assertOrderedRange } from '../../lib/validation';
import { changedRows } from '../../lib/guarded-write';
import { assertReferencedProject, referencedProject } from '../../lib/references';
import { getWorkspace } from '../workspaces/settings';
import { newId } from '../../lib/ids';
import { nowIso, todayIn } from '../../lib/time';
import { recordEvent } from '../events/record';
import { updateWithEvent } from '../events/update-with-event';
import { assertConvertible } from '../rates/convertible';
import type { SupplierValue, TaxGroupValue } from './received-fields';
import type { CreateExpenseInput, ExpenseFilter, UpdateExpenseInput } from './schemas';

export type ExpenseRow = typeof expenses.$inferSelect;

const parsed = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));

export const serializeExpense = (row: ExpenseRow) => ({
  id: row.id,
  scope: row.projectId ? ('project' as const) : ('business' as const),
  project_id: row.projectId,
  category: row.category as CreateExpenseInput['category'],
  description: row.description,
  vendor: row.vendor,
  amount: row.amount,
  currency: row.currency,
  incurred_on: row.incurredOn,
  billable: row.billable,
  invoice_id: row.invoiceId,
  supplier: parsed<SupplierValue>(row.supplier),
  reference: row.reference,
  net_amount: row.netAmount,
  tax_amount: row.taxAmount,
  tax_breakdown: parsed<TaxGroupValue[]>(row.taxBreakdown),
  due_date: row.dueDate,
  document_id: row.documentId,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export async function createExpense(ctx: ServiceContext, input: CreateExpenseInput): Promise<ExpenseRow> {
  const project = input.project_id ? await referencedProject(ctx, input.project_id) : null;
  // Spent in the project's currency, else the workspace's, unless the request says (§20).
  const currency = input.currency ?? project?.currency ?? (await getWorkspace(ctx)).defaultCurrency;
  await assertConvertible(ctx.env, currency);
  const now = nowIso();
  const row: ExpenseRow = {
    id: newId('expense'),
    userId: ctx.userId,
    workspaceId: ctx.workspaceId,
    projectId: input.project_id ?? null,
    category: input.category,
    description: input.description ?? null,
    vendor: input.vendor ?? null,
    amount: input.amount,
    currency,
    incurredOn: input.incurred_on ?? todayIn(ctx.timeZone),
    billable: input.billable,
    invoiceId: null,
    supplier: null,
    reference: null,
    netAmount: null,
    taxAmount: null,
    taxBreakdown: null,
    dueDate: null,
    documentId: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.batch([ctx.db.insert(expenses).values(row), recordEvent(ctx, 'expense.created', serializeExpense(row))]);
  return row;
}

export async function listExpenses(ctx: WorkspaceContext, filter: ExpenseFilter & { beforeId?: string }) {
  assertOrderedRange('from', filter.from, 'to', filter.to);
  return ctx.db
    .select()
    .from(expenses)
    .where(
      and(
        inWorkspace(ctx, expenses),
        filter.scope === 'project' ? isNotNull(expenses.projectId) : filter.scope === 'business' ? isNull(expenses.projectId) : undefined,
        filter.project_id ? eq(expenses.projectId, filter.project_id) : undefined,
        filter.category ? eq(expenses.category, filter.category) : undefined,
        filter.from ? gte(expenses.incurredOn, filter.from) : undefined,
        filter.to ? lte(expenses.incurredOn, filter.to) : undefined,
        filter.beforeId ? lt(expenses.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(expenses.id))
    .limit(filter.limit + 1);
}

export async function getExpense(ctx: WorkspaceContext, id: string): Promise<ExpenseRow> {
  const row = await ctx.db.query.expenses.findFirst({ where: and(eq(expenses.id, id), inWorkspace(ctx, expenses)) });
  if (!row) throw notFound('Expense');
  return row;
}

function toColumns(input: UpdateExpenseInput): Partial<ExpenseRow> {
  const set: Partial<ExpenseRow> = {};
  if (input.project_id !== undefined) set.projectId = input.project_id;
  if (input.category !== undefined) set.category = input.category;
  if (input.description !== undefined) set.description = input.description;
  if (input.vendor !== undefined) set.vendor = input.vendor;
  if (input.amount !== undefined) set.amount = input.amount;
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.incurred_on !== undefined) set.incurredOn = input.incurred_on;
  if (input.billable !== undefined) set.billable = input.billable;
  return set;
}

export async function updateExpense(ctx: ServiceContext, id: string, input: UpdateExpenseInput): Promise<ExpenseRow> {
  await assertReferencedProject(ctx, input.project_id);
  if (input.currency) await assertConvertible(ctx.env, input.currency);
  return updateWithEvent(ctx, {
    what: 'expense', table: expenses, type: 'expense.updated', serialize: serializeExpense,
    read: () => getExpense(ctx, id),
    change: (before) => {
      assertNotBilled(before);
      assertDocumentAmounts(before, input);
      return toColumns(input);
    },
  });
}

/** An expense an invoice bills is that invoice's until the draft is deleted or the invoice voided. */
function assertNotBilled(expense: ExpenseRow) {
  if (expense.invoiceId) throw invalidState(`This expense is billed by invoice ${expense.invoiceId}; delete that draft or void the invoice to change it.`);
}

/**
 * An expense accepted from a received document states the document's total and currency, split into `net_amount`
 * and `tax_amount` (§21): changing one of them alone would break that sum. The document is corrected instead.
 */
function assertDocumentAmounts(expense: ExpenseRow, input: UpdateExpenseInput) {
  if (!expense.documentId) return;
  const changes = (input.amount !== undefined && input.amount !== expense.amount) || (input.currency !== undefined && input.currency !== expense.currency);
  if (changes) {
    throw invalidState(`This expense states the total of inbound document ${expense.documentId}; delete it (the document returns to review), correct the document and accept it again.`);
  }
}

export async function deleteExpense(ctx: ServiceContext, id: string): Promise<void> {
  const before = await getExpense(ctx, id);
  assertNotBilled(before);
  const [deleted] = await ctx.db.batch([
    // Guarded on being unbilled: an invoice from time that took it meanwhile keeps it.
    ctx.db.delete(expenses).where(and(eq(expenses.id, id), inWorkspace(ctx, expenses), isNull(expenses.invoiceId))),
    recordEvent(ctx, 'expense.deleted', serializeExpense(before), { ifChanged: true }),
    // The document it was accepted from goes back to review (§21), if the expense is gone.
    ...(before.documentId
      ? [ctx.db
        .update(inboundDocuments)
        .set({ status: 'needs_review', expenseId: null, updatedAt: nowIso() })
        .where(and(
          eq(inboundDocuments.id, before.documentId), inWorkspace(ctx, inboundDocuments), eq(inboundDocuments.expenseId, id),
          notExists(ctx.db.select({ one: sql`1` }).from(expenses).where(eq(expenses.id, id))),
        ))]
      : []),
  ]);
  if (changedRows(deleted) === 0) {
    assertNotBilled(await getExpense(ctx, id));
    throw notFound('Expense');
  }
}
