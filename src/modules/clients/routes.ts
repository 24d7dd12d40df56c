// Clients, mounted under /api/workflow and /v1 alike.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import * as S from './schemas';
import { createClient, deleteClient, getClient, listClients, serializeClient, updateClient } from './service';

const tags = ['Clients'];
const params = idParams('client');

export const clientRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/clients', operationId: 'listClients', tags, access: 'user', role: 'viewer',
      summary: 'List clients',
      request: { query: S.ClientQuery },
      responses: { 200: jsonContent(S.ClientPage, 'A page of clients.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listClients(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'client') });
      return c.json(toPage(rows, query.limit, serializeClient), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/clients', operationId: 'createClient', tags, access: 'user', role: 'member',
      summary: 'Create a client',
      request: { body: jsonBody(S.CreateClientBody) },
      responses: { 201: jsonContent(S.Client, 'The new client.') },
    }),
    async (c) => c.json(serializeClient(await createClient(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/clients/{id}', operationId: 'getClient', tags, access: 'user', role: 'viewer',
      summary: 'Get a client',
      request: { params },
      responses: { 200: jsonContent(S.Client, 'The client.') },
    }),
    async (c) => c.json(serializeClient(await getClient(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/clients/{id}', operationId: 'updateClient', tags, access: 'user', role: 'member',
      summary: 'Update a client',
      description: 'Only the fields sent change. `address`, when sent, replaces the whole address.',
      request: { params, body: jsonBody(S.UpdateClientBody) },
      responses: { 200: jsonContent(S.Client, 'The updated client.') },
    }),
    async (c) => {
      const row = await updateClient(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeClient(row), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/clients/{id}', operationId: 'deleteClient', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete a client',
      description: '409 `conflict` while invoices, quotes, recurring invoices or projects reference the client (the message names them); archive it instead.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteClient(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
