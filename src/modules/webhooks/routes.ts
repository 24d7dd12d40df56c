// Webhook endpoints, their delivery logs, and deliveries on demand (§11), under /api. Admin only,
// reads included: an endpoint's URL and log say where the workspace's data goes.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, listQuery } from '../../lib/schemas';
import { listDeliveries, recoverFailed, resendEvent, sendTestEvent, serializeDelivery } from './deliveries';
import { dispatchQuietly } from './dispatch';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateSecret, serializeEndpoint, updateEndpoint } from './endpoints';
import * as S from './schemas';

const tags = ['Webhooks'];
const params = idParams('webhookEndpoint');
const role = 'admin' as const;

export const webhookRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/webhook-endpoints', operationId: 'listWebhookEndpoints', tags, access: 'user', role,
      summary: 'List webhook endpoints',
      request: { query: listQuery },
      responses: { 200: jsonContent(S.EndpointPage, 'A page of endpoints.') },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      return c.json(toPage(await listEndpoints(c.get('ctx'), limit, decodeCursor(cursor, 'webhookEndpoint')), limit, serializeEndpoint), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/webhook-endpoints', operationId: 'createWebhookEndpoint', tags, access: 'user', role, errors: [409],
      summary: 'Add a webhook endpoint',
      description: 'Events of the types in `events` are POSTed to `url` as they happen (see the `webhooks` section). At most 16 endpoints a workspace (409); a `url` that breaks its rules is a 422.',
      request: { body: jsonBody(S.CreateEndpointBody) },
      responses: { 201: jsonContent(S.EndpointWithSecret, 'The endpoint, with its secret.') },
    }),
    async (c) => {
      const { row, secret } = await createEndpoint(c.get('ctx'), c.req.valid('json'));
      return c.json({ ...serializeEndpoint(row), secret }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/webhook-endpoints/{id}', operationId: 'getWebhookEndpoint', tags, access: 'user', role,
      summary: 'Get a webhook endpoint',
      request: { params },
      responses: { 200: jsonContent(S.Endpoint, 'The endpoint (never its secret).') },
    }),
    async (c) => c.json(serializeEndpoint(await getEndpoint(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/webhook-endpoints/{id}', operationId: 'updateWebhookEndpoint', tags, access: 'user', role,
      summary: 'Change a webhook endpoint',
      description: 'Once an endpoint is enabled again, deliveries that failed meanwhile can be sent with …/recover.',
      request: { params, body: jsonBody(S.UpdateEndpointBody) },
      responses: { 200: jsonContent(S.Endpoint, 'The endpoint as it is now.') },
    }),
    async (c) => c.json(serializeEndpoint(await updateEndpoint(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/webhook-endpoints/{id}', operationId: 'deleteWebhookEndpoint', tags, access: 'user', role,
      summary: 'Delete a webhook endpoint',
      description: 'Its delivery log goes with it.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteEndpoint(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/webhook-endpoints/{id}/rotate-secret', operationId: 'rotateWebhookSecret', tags, access: 'user', role,
      summary: 'Rotate the signing secret',
      description: 'Answers a new secret, shown once. Deliveries carry both signatures until the previous secret expires; at most two secrets sign at any time.',
      request: { params, body: jsonBody(S.RotateSecretBody) },
      responses: { 200: jsonContent(S.EndpointWithSecret, 'The endpoint, with its new secret.') },
    }),
    async (c) => {
      const { row, secret } = await rotateSecret(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').expire_previous_in_hours);
      return c.json({ ...serializeEndpoint(row), secret }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/webhook-endpoints/{id}/test', operationId: 'testWebhookEndpoint', tags, access: 'user', role, errors: [409],
      summary: 'Send a test event',
      description: 'Sends a signed `webhook.test` event now, whatever the endpoint subscribes to. It shows in the delivery log, not in /api/events. 409 while the endpoint is disabled.',
      request: { params },
      responses: { 202: jsonContent(S.Accepted, 'Queued; follow it in the delivery log.') },
    }),
    async (c) => {
      const row = await sendTestEvent(c.get('ctx'), c.req.valid('param').id);
      await dispatchQuietly(c.get('ctx').env); // the env of the workspace's database, where the delivery is
      return c.json({ delivery_id: row.id }, 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/webhook-endpoints/{id}/recover', operationId: 'recoverWebhookDeliveries', tags, access: 'user', role, errors: [409],
      summary: 'Re-send failed deliveries',
      description: 'Every event whose delivery to this endpoint failed for good since `since` is delivered again, from a first attempt. 409 while the endpoint is disabled: enable it first.',
      request: { params, body: jsonBody(S.RecoverBody) },
      responses: { 202: jsonContent(S.Recovered, 'How many deliveries were queued.') },
    }),
    async (c) => {
      const count = await recoverFailed(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').since);
      await dispatchQuietly(c.get('ctx').env); // the env of the workspace's database, where the delivery is
      return c.json({ count }, 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/webhook-endpoints/{id}/deliveries', operationId: 'listWebhookDeliveries', tags, access: 'user', role,
      summary: 'The delivery log',
      description: 'One row per attempt.',
      request: { params, query: S.DeliveryQuery },
      responses: { 200: jsonContent(S.DeliveryPage, 'A page of delivery attempts.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listDeliveries(c.get('ctx'), c.req.valid('param').id, { ...query, beforeId: decodeCursor(query.cursor, 'webhookDelivery') });
      return c.json(toPage(rows, query.limit, serializeDelivery), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/events/{id}/resend', operationId: 'resendEvent', tags, access: 'user', role, errors: [409],
      summary: 'Deliver an event again',
      description: 'Delivers one event of this workspace again to one of its endpoints (422 on `endpoint_id` for any other), with the same `webhook-id`.',
      request: { params: idParams('event'), body: jsonBody(S.ResendBody) },
      responses: { 202: jsonContent(S.Accepted, 'Queued; follow it in the endpoint\'s delivery log.') },
    }),
    async (c) => {
      const row = await resendEvent(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').endpoint_id);
      await dispatchQuietly(c.get('ctx').env); // the env of the workspace's database, where the delivery is
      return c.json({ delivery_id: row.id }, 202);
    },
  );
