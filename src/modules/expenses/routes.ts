// Expenses, under /api/workflow only.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import * as S from './schemas';
import { createExpense, deleteExpense, getExpense, listExpenses, serializeExpense, updateExpense } from './service';

const tags = ['Expenses'];
const params = idParams('expense');

export const expenseRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/expenses', operationId: 'listExpenses', tags, access: 'user', role: 'viewer',
      summary: 'List expenses',
      request: { query: S.ExpenseQuery },
      responses: { 200: jsonContent(S.ExpensePage, 'A page of expenses.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listExpenses(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'expense') });
      return c.json(toPage(rows, query.limit, serializeExpense), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/expenses', operationId: 'createExpense', tags, access: 'user', role: 'member',
      summary: 'Record an expense',
      description: 'With `project_id` it is a project expense, without one a business expense.',
      request: { body: jsonBody(S.CreateExpenseBody) },
      responses: { 201: jsonContent(S.Expense, 'The recorded expense.') },
    }),
    async (c) => c.json(serializeExpense(await createExpense(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/expenses/{id}', operationId: 'getExpense', tags, access: 'user', role: 'viewer',
      summary: 'Get an expense',
      request: { params },
      responses: { 200: jsonContent(S.Expense, 'The expense.') },
    }),
    async (c) => c.json(serializeExpense(await getExpense(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/expenses/{id}', operationId: 'updateExpense', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Update an expense',
      description: 'An expense an invoice bills (`invoice_id`) is 409 `invalid_state` until that draft is deleted or the invoice voided; so is a new `amount` or `currency` on one from a document.',
      request: { params, body: jsonBody(S.UpdateExpenseBody) },
      responses: { 200: jsonContent(S.Expense, 'The updated expense.') },
    }),
    async (c) => {
      const row = await updateExpense(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeExpense(row), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/expenses/{id}', operationId: 'deleteExpense', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete an expense',
      description: 'An expense an invoice bills (`invoice_id`) is 409 `invalid_state` until that draft is deleted or the invoice voided.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteExpense(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
