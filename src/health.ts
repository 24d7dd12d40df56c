// GET /health as the document describes it. The app answers /health with a plain handler, so a
// cold worker's first request builds no route definitions (defineRoute brings the key check, the
// idempotency store and their tables); this description is added when the document is built.
import { z } from '@hono/zod-openapi';
import { defineRoute, jsonContent } from './http/define-route';

const Health = z.object({ status: z.literal('ok'), version: z.string() }).openapi('Health');

export const healthRoute = defineRoute({
  method: 'get', path: '/health', operationId: 'getHealth', tags: ['Meta'], access: 'public',
  summary: 'Liveness',
  responses: { 200: jsonContent(Health, 'The worker is up.') },
});
