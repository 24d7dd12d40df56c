// Time entries, mounted under /api/workflow and /v1 alike.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import * as S from './schemas';
import {
  createTimeEntry, deleteTimeEntry, getTimeEntry, listTimeEntries, serializeTimeEntry, stopTimeEntry, summarizeTime, type TimeEntryView,
  updateTimeEntry, withId,
} from './service';

const tags = ['Time entries'];
const params = idParams('timeEntry');
const OWN = 'Members change their own entries; another member\'s needs the admin role (403). An entry an invoice bills is 409 `invalid_state` until that draft is deleted or the invoice voided.';

export const timeEntryRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/time-entries', operationId: 'listTimeEntries', tags, access: 'user', role: 'viewer',
      summary: 'List time entries',
      description: 'Every member\'s entries. `from` after `to` is a 422.',
      request: { query: S.TimeEntryQuery },
      responses: { 200: jsonContent(S.TimeEntryPage, 'A page of time entries.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listTimeEntries(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'timeEntry') });
      return c.json(toPage(rows.map(withId), query.limit, (row: TimeEntryView) => serializeTimeEntry(row)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/time-entries/summary', operationId: 'summarizeTimeEntries', tags, access: 'user', role: 'viewer',
      summary: 'Sum time per project, user or client',
      description: 'Stopped entries with `spent_date` in the period, one row per group and currency (a user or client with entries in two currencies has two rows), ordered by name. `uninvoiced_amount` equals the sum of the entries\' own amounts.',
      request: { query: S.SummaryQuery },
      responses: { 200: jsonContent(S.Summary, 'The sums, one row per group and currency.') },
    }),
    async (c) => c.json(await summarizeTime(c.get('ctx'), c.req.valid('query')), 200),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/time-entries', operationId: 'createTimeEntry', tags, access: 'user', role: 'member',
      summary: 'Record time, or start a timer',
      description: 'With `duration_seconds`, or `started_at` and `stopped_at`, a finished entry (1 s to 24 h); with neither a duration nor `stopped_at`, a running timer. A user has one running timer per workspace: starting one stops the running one first, in the same change, even when starts race; a timer forgotten for more than a day stops at 24 h.',
      request: { body: jsonBody(S.CreateTimeEntryBody) },
      responses: { 201: jsonContent(S.TimeEntry, 'The new entry (is_running for a timer).') },
    }),
    async (c) => c.json(serializeTimeEntry(await createTimeEntry(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/time-entries/{id}', operationId: 'getTimeEntry', tags, access: 'user', role: 'viewer',
      summary: 'Get a time entry',
      request: { params },
      responses: { 200: jsonContent(S.TimeEntry, 'The time entry.') },
    }),
    async (c) => c.json(serializeTimeEntry(await getTimeEntry(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/time-entries/{id}', operationId: 'updateTimeEntry', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Update a time entry',
      description: `${OWN} A running timer's duration is set by stopping it (409 otherwise). A new \`project_id\` brings that project's currency and hourly rate unless \`rate\` is given.`,
      request: { params, body: jsonBody(S.UpdateTimeEntryBody) },
      responses: { 200: jsonContent(S.TimeEntry, 'The updated entry.') },
    }),
    async (c) => c.json(serializeTimeEntry(await updateTimeEntry(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/time-entries/{id}', operationId: 'deleteTimeEntry', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete a time entry',
      description: OWN,
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteTimeEntry(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/time-entries/{id}/stop', operationId: 'stopTimeEntry', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Stop a running timer',
      description: `Running timers only (409 \`invalid_state\` otherwise); a \`stopped_at\` not 1 s to 24 h after \`started_at\` is a 422. ${OWN.split('.')[0]}.`,
      request: { params, body: { required: false, content: { 'application/json': { schema: S.StopTimeEntryBody } } } },
      responses: { 200: jsonContent(S.TimeEntry, 'The stopped entry.') },
    }),
    async (c) => c.json(serializeTimeEntry(await stopTimeEntry(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').stopped_at)), 200),
  );
