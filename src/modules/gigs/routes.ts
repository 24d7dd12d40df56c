// The gig board under /v1: public reads; writes by members of the workspace that posted the gig.
import { createDb } from '../../lib/db';
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { gigReadRateLimit } from '../../middleware/rate-limit';
import * as S from './schemas';
import { deleteGig, getGig, listGigs, postGig, serializeGig, updateGig } from './service';

const tags = ['Gigs'];
const params = idParams('gig');
// Public board pages may be cached briefly by browsers and shared caches.
const PUBLIC_CACHE = 'public, max-age=30';

export const gigRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/gigs', operationId: 'listGigs', tags, access: 'public', publicLimit: gigReadRateLimit,
      summary: 'Browse the gig board',
      description: 'Open gigs by default, newest first.',
      request: { query: S.GigQuery },
      responses: { 200: jsonContent(S.GigPage, 'A page of gigs.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listGigs(createDb(c.env.DB), { ...query, beforeId: decodeCursor(query.cursor, 'gig') });
      c.header('Cache-Control', PUBLIC_CACHE);
      return c.json(toPage(rows, query.limit, serializeGig), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/gigs/{id}', operationId: 'getGig', tags, access: 'public', publicLimit: gigReadRateLimit,
      summary: 'Get a gig',
      request: { params },
      responses: { 200: jsonContent(S.Gig, 'The gig.') },
    }),
    async (c) => {
      const row = await getGig(createDb(c.env.DB), c.req.valid('param').id);
      c.header('Cache-Control', PUBLIC_CACHE);
      return c.json(serializeGig(row), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/gigs', operationId: 'createGig', tags, access: 'user', role: 'member',
      summary: 'Post a gig',
      description: 'Shown publicly under your display name.',
      request: { body: jsonBody(S.CreateGigBody) },
      responses: { 201: jsonContent(S.Gig, 'The posted gig.') },
    }),
    async (c) => c.json(serializeGig(await postGig(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/gigs/{id}', operationId: 'updateGig', tags, access: 'user', role: 'member',
      summary: 'Edit or close your gig',
      description: 'Only the workspace that posted it (another\'s is a 404).',
      request: { params, body: jsonBody(S.UpdateGigBody) },
      responses: { 200: jsonContent(S.Gig, 'The updated gig.') },
    }),
    async (c) => {
      const row = await updateGig(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeGig(row), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/gigs/{id}', operationId: 'deleteGig', tags, access: 'user', role: 'member',
      summary: 'Remove your gig',
      description: 'Only the workspace that posted it (another\'s is a 404).',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteGig(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
