// Recurring invoices, under /api/workflow and /v1 alike (§12). Members set them up and change them;
// everyone in the workspace reads them; the cron issues the invoices (issue.ts).
import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { linkOrigin } from '../invoices/links';
import * as S from './schemas';
import {
  cancelRecurring, createRecurring, deleteRecurring, getRecurring, listRecurring, pauseRecurring, resumeRecurring, serializeRecurring, updateRecurring,
} from './service';

const tags = ['Recurring invoices'];
const params = idParams('recurringInvoice');
const one = (description: string) => jsonContent(S.RecurringInvoice, description);
const DATES = 'The n-th invoice is issued when `start_date + n × interval_count intervals` has come in `time_zone`, the day clamped to the end of shorter months (Jan 31 monthly: Feb 28 or 29, Mar 31, Apr 30). Each period makes exactly one invoice, numbered from the workspace\'s sequence, as a draft or, with `auto_send`, sent.';

const action = (verb: 'pause' | 'resume' | 'cancel', summary: string, description: string, run: typeof pauseRecurring) => {
  const route = defineRoute({
    method: 'post', path: `/recurring-invoices/{id}/${verb}`, operationId: `${verb}RecurringInvoice`, tags, access: 'user', role: 'member', errors: [409],
    summary, description, request: { params }, responses: { 200: one('The recurring invoice as it is now.') },
  });
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => c.json(serializeRecurring(await run(c.get('ctx'), c.req.valid('param').id)), 200);
  return [route, handler] as const;
};

export const recurringInvoiceRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/recurring-invoices', operationId: 'listRecurringInvoices', tags, access: 'user', role: 'viewer',
      summary: 'List recurring invoices',
      request: { query: S.RecurringQuery },
      responses: { 200: jsonContent(S.RecurringPage, 'A page of recurring invoices.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listRecurring(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'recurringInvoice') });
      return c.json(toPage(rows, query.limit, serializeRecurring), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/recurring-invoices', operationId: 'createRecurringInvoice', tags, access: 'user', role: 'member',
      summary: 'Set up a recurring invoice',
      description: `${DATES} \`project_id\` must be a project of the same client.`,
      request: { body: jsonBody(S.CreateRecurringBody) },
      responses: { 201: one('The new recurring invoice.') },
    }),
    async (c) => c.json(serializeRecurring(await createRecurring(c.get('ctx'), c.req.valid('json'), linkOrigin(c.env, c.req.url))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/recurring-invoices/{id}', operationId: 'getRecurringInvoice', tags, access: 'user', role: 'viewer',
      summary: 'Get a recurring invoice', request: { params }, responses: { 200: one('The recurring invoice.') },
    }),
    async (c) => c.json(serializeRecurring(await getRecurring(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/recurring-invoices/{id}', operationId: 'updateRecurringInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Change a recurring invoice',
      description: 'Changes the invoices not yet issued; issued ones stay as they are. 409 once completed or canceled.',
      request: { params, body: jsonBody(S.UpdateRecurringBody) },
      responses: { 200: one('The recurring invoice as it is now.') },
    }),
    async (c) => c.json(serializeRecurring(await updateRecurring(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/recurring-invoices/{id}', operationId: 'deleteRecurringInvoice', tags, access: 'user', role: 'member',
      summary: 'Delete a recurring invoice', description: 'The invoices it issued stay.', request: { params }, responses: { 204: noContent },
    }),
    async (c) => {
      await deleteRecurring(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(...action('pause', 'Pause', 'Active → paused: no invoice is issued while paused.', pauseRecurring))
  .openapi(...action('resume', 'Resume', 'Paused → active. Periods that passed while paused are skipped, not issued late: the next invoice is the first scheduled on or after today in its time zone.', resumeRecurring))
  .openapi(...action('cancel', 'Cancel', 'Active or paused → canceled, for good.', cancelRecurring));
