// The co-pilot under /v1/ai: ask (queued, 202), then read the job.
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { headerRefs } from '../../http/response-headers';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { aiRateLimit } from '../../middleware/rate-limit';
import * as S from './schemas';
import { getSuggestion, requestSuggestion, serializeSuggestion } from './service';

const tags = ['Co-pilot'];

export const suggestionRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/ai/suggest', operationId: 'createSuggestion', tags, access: 'user', role: 'member', middleware: aiRateLimit,
      summary: 'Ask the co-pilot for help with a task',
      description: 'Queued: answers 202 with `Location` of the job; poll it until `completed` or `failed`. The worker\'s configuration picks the provider (`provider` says which); a model\'s answer is validated before it is stored. At most 10 a minute per workspace and 10 per user, however many keys.',
      request: { body: jsonBody(S.SuggestBody) },
      responses: {
        202: { ...jsonContent(S.QueuedSuggestion, 'Queued.'), headers: headerRefs('Location') },
      },
    }),
    async (c) => {
      const row = await requestSuggestion(c.get('ctx'), c.req.valid('json'));
      c.header('Location', `/v1/ai/suggestions/${row.id}`);
      return c.json({ id: row.id, status: 'queued' as const, kind: row.kind, task: row.task, created_at: row.createdAt }, 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/ai/suggestions/{id}', operationId: 'getSuggestion', tags, access: 'user', role: 'viewer',
      summary: 'A co-pilot job and its suggestions',
      request: { params: idParams('suggestion') },
      responses: { 200: jsonContent(S.Suggestion, 'The job.') },
    }),
    async (c) => c.json(serializeSuggestion(await getSuggestion(c.get('ctx'), c.req.valid('param').id)), 200),
  );
