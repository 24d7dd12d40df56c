import { z } from '@hono/zod-openapi';
import { EXPENSE_CATEGORIES } from '../../db/schema/expenses';
import { currencySchema, dateSchema, idSchema, listQuery, longText, pageOf, positiveMinorAmount, text, timestampSchema } from '../../lib/schemas';
import { ExtractedSupplier, ExtractedTaxGroup } from './received-fields';

// The list lives with the table, so the workspace's accounting setting can name the categories too.
export { EXPENSE_CATEGORIES };
export const ExpenseCategory = z.enum(EXPENSE_CATEGORIES);
export const ExpenseScope = z.enum(['project', 'business']);

const expenseFields = {
  project_id: idSchema('project').nullish().openapi({ description: 'One of your projects (scope "project"); absent or null for a business expense.' }),
  category: ExpenseCategory,
  description: longText(500).nullish(),
  vendor: text(200).nullish(),
  amount: positiveMinorAmount('Amount spent, in minor units of `currency`; more than zero.'),
  currency: currencySchema.optional().openapi({ description: 'Default: the project\'s, else `default_currency`.' }),
  incurred_on: dateSchema.openapi({ description: 'Defaults to today in the workspace time zone.' }).optional(),
  billable: z.boolean().default(false).openapi({ description: 'To be passed on to a client.' }),
};

export const CreateExpenseBody = z.strictObject(expenseFields).openapi('CreateExpense');

export const UpdateExpenseBody = z
  .strictObject({
    project_id: expenseFields.project_id,
    category: ExpenseCategory.optional(),
    description: expenseFields.description,
    vendor: expenseFields.vendor,
    amount: expenseFields.amount.optional(),
    currency: currencySchema.optional(),
    incurred_on: dateSchema.optional(),
    billable: z.boolean().optional(),
  })
  .openapi('UpdateExpense');

export const Expense = z
  .object({
    id: idSchema('expense'),
    scope: ExpenseScope,
    project_id: z.string().nullable(),
    category: ExpenseCategory,
    description: z.string().nullable(),
    vendor: z.string().nullable(),
    amount: z.number().int(),
    currency: z.string(),
    incurred_on: z.string(),
    billable: z.boolean(),
    invoice_id: z.string().nullable().openapi({ description: 'The invoice that bills it (from time); while set, the expense cannot be changed or deleted (409).' }),
    // §21: set from the accepted document (`document_id`), null on an expense typed in; read-only.
    supplier: ExtractedSupplier.nullable(),
    reference: z.string().nullable().openapi({ description: 'The supplier\'s invoice number.' }),
    net_amount: z.number().int().nullable(),
    tax_amount: z.number().int().nullable().openapi({ description: 'Input tax: `amount` = `net_amount` + `tax_amount`.' }),
    tax_breakdown: z.array(ExtractedTaxGroup).nullable(),
    due_date: z.string().nullable(),
    document_id: z.string().nullable().openapi({ description: 'The inbound document it was accepted from; its `amount` and `currency` are then fixed (409).' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Expense');

export const ExpenseQuery = listQuery.extend({
  scope: ExpenseScope.optional(),
  project_id: idSchema('project').optional(),
  category: ExpenseCategory.optional(),
  from: dateSchema.optional().openapi({ description: 'incurred_on on or after.' }),
  to: dateSchema.optional().openapi({ description: 'incurred_on on or before.' }),
});

export const ExpensePage = pageOf(Expense);

export type CreateExpenseInput = z.infer<typeof CreateExpenseBody>;
export type UpdateExpenseInput = z.infer<typeof UpdateExpenseBody>;
export type ExpenseFilter = z.infer<typeof ExpenseQuery>;
