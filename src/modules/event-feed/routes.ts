// The event record (§11), mounted under /api. Any member may read it.
import { defineRoute, jsonContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { EventQuery } from '../events/schemas';
import { serializeEvent } from '../events/serialize';
import { getEvent, listEvents } from '../events/service';
import * as S from './schemas';

const tags = ['Events'];

export const eventRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/events', operationId: 'listEvents', tags, access: 'user', role: 'viewer',
      summary: 'List events',
      description: 'Every change in the workspace.',
      request: { query: EventQuery },
      responses: { 200: jsonContent(S.EventPage, 'A page of events.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listEvents(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'event') });
      return c.json(toPage(rows, query.limit, serializeEvent), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/events/{id}', operationId: 'getEvent', tags, access: 'user', role: 'viewer',
      summary: 'Get an event',
      request: { params: idParams('event') },
      responses: { 200: jsonContent(S.Event, 'The event.') },
    }),
    async (c) => c.json(serializeEvent(await getEvent(c.get('ctx'), c.req.valid('param').id)), 200),
  );
