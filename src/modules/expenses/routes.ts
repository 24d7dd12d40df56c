// Expenses, under /api/workflow only.
import { createDb } from '../../lib/db';
import { defineRoute, jsonBody, jsonContent, noContent } from '../../lib/openapi';
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
      method: 'get', path: '/expenses', tags, access: 'user',
      summary: 'List expenses',
      request: { query: S.ExpenseQuery },
      responses: { 200: jsonContent(S.ExpensePage, 'A page of expenses, newest first.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listExpenses(createDb(c.env.DB), c.get('caller').userId, { ...query, beforeId: decodeCursor(query.cursor, 'expense') });
      return c.json(toPage(rows, query.limit, serializeExpense), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/expenses', tags, access: 'user',
      summary: 'Record an expense',
      description: 'With `project_id` it is a project expense, without one a business expense.',
      request: { body: jsonBody(S.CreateExpenseBody) },
      responses: { 201: jsonContent(S.Expense, 'The recorded expense.') },
    }),
    async (c) => c.json(serializeExpense(await createExpense(createDb(c.env.DB), c.get('caller').userId, c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/expenses/{id}', tags, access: 'user',
      summary: 'Get an expense',
      request: { params },
      responses: { 200: jsonContent(S.Expense, 'The expense.') },
    }),
    async (c) => c.json(serializeExpense(await getExpense(createDb(c.env.DB), c.get('caller').userId, c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/expenses/{id}', tags, access: 'user',
      summary: 'Update an expense',
      request: { params, body: jsonBody(S.UpdateExpenseBody) },
      responses: { 200: jsonContent(S.Expense, 'The updated expense.') },
    }),
    async (c) => {
      const row = await updateExpense(createDb(c.env.DB), c.get('caller').userId, c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeExpense(row), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/expenses/{id}', tags, access: 'user',
      summary: 'Delete an expense',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteExpense(createDb(c.env.DB), c.get('caller').userId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
