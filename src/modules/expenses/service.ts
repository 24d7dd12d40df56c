// Expenses: money spent on a project or on the business. A project_id must be the caller's.
import { and, desc, eq, gte, isNotNull, isNull, lt, lte } from 'drizzle-orm';
import { expenses } from '../../db/schema';
import { notFound } from '../../errors';
import type { Db } from '../../lib/db';
import { assertReferencedProject } from '../../lib/references';
import { newId } from '../../lib/ids';
import { nowIso, todayUtc } from '../../lib/time';
import { recordActivity } from '../activity/service';
import type { CreateExpenseInput, ExpenseFilter, UpdateExpenseInput } from './schemas';

type ExpenseRow = typeof expenses.$inferSelect;

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
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export async function createExpense(db: Db, userId: string, input: CreateExpenseInput): Promise<ExpenseRow> {
  await assertReferencedProject(db, userId, input.project_id);
  const now = nowIso();
  const row: ExpenseRow = {
    id: newId('expense'),
    userId,
    projectId: input.project_id ?? null,
    category: input.category,
    description: input.description ?? null,
    vendor: input.vendor ?? null,
    amount: input.amount,
    currency: input.currency,
    incurredOn: input.incurred_on ?? todayUtc(),
    billable: input.billable,
    createdAt: now,
    updatedAt: now,
  };
  const what = row.vendor ? ` at ${row.vendor}` : '';
  await db.batch([
    db.insert(expenses).values(row),
    recordActivity(db, { userId, type: 'expense.recorded', subjectId: row.id, summary: `${row.category} expense${what} recorded`, occurredAt: now }),
  ]);
  return row;
}

export async function listExpenses(db: Db, userId: string, filter: ExpenseFilter & { beforeId?: string }) {
  return db
    .select()
    .from(expenses)
    .where(
      and(
        eq(expenses.userId, userId),
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

export async function getExpense(db: Db, userId: string, id: string): Promise<ExpenseRow> {
  const row = await db.query.expenses.findFirst({ where: and(eq(expenses.id, id), eq(expenses.userId, userId)) });
  if (!row) throw notFound('Expense');
  return row;
}

export async function updateExpense(db: Db, userId: string, id: string, input: UpdateExpenseInput): Promise<ExpenseRow> {
  await assertReferencedProject(db, userId, input.project_id);
  const set: Partial<ExpenseRow> = { updatedAt: nowIso() };
  if (input.project_id !== undefined) set.projectId = input.project_id;
  if (input.category !== undefined) set.category = input.category;
  if (input.description !== undefined) set.description = input.description;
  if (input.vendor !== undefined) set.vendor = input.vendor;
  if (input.amount !== undefined) set.amount = input.amount;
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.incurred_on !== undefined) set.incurredOn = input.incurred_on;
  if (input.billable !== undefined) set.billable = input.billable;
  const [row] = await db.update(expenses).set(set).where(and(eq(expenses.id, id), eq(expenses.userId, userId))).returning();
  if (!row) throw notFound('Expense');
  return row;
}

export async function deleteExpense(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db.delete(expenses).where(and(eq(expenses.id, id), eq(expenses.userId, userId))).returning({ id: expenses.id });
  if (!deleted.length) throw notFound('Expense');
}
