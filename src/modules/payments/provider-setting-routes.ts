// A workspace's provider setting (the payment provider, the payout provider): PUT connects it,
// GET shows it without its secrets, DELETE disconnects it; admins only. Each module gives its
// path, names, words and service functions.
import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../lib/context';
import { createRouter } from '../../lib/router';
import { linkOrigin } from '../invoices/links';
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';

type Words = { summary: string; description: string };

export function providerSettingRoutes<B extends z.ZodType, R extends z.ZodType, Row>(setting: {
  path: string;
  /** The operation ids' noun: connect{noun}, get{noun}, disconnect{noun}. */
  noun: string;
  tags: string[];
  body: B;
  reply: R;
  connect: Words & { run: (ctx: ServiceContext, input: z.infer<B>) => Promise<Row> };
  get: Words & { run: (ctx: ServiceContext) => Promise<Row | undefined> };
  disconnect: Words & { run: (ctx: ServiceContext) => Promise<void> };
  serialize: (row: Row | undefined, origin: string) => z.infer<R>;
}) {
  const { path, noun, tags, connect, get, disconnect, serialize } = setting;
  return createRouter()
    .openapi(
      defineRoute({
        method: 'put', path, operationId: `connect${noun}`, tags, access: 'user', role: 'admin',
        summary: connect.summary, description: connect.description,
        request: { body: jsonBody(setting.body) },
        responses: { 200: jsonContent(setting.reply, 'The connected provider.') },
      }),
      async (c) => c.json(serialize(await connect.run(c.get('ctx'), c.req.valid('json' as never) as z.infer<B>), linkOrigin(c.env, c.req.url)), 200),
    )
    .openapi(
      defineRoute({
        method: 'get', path, operationId: `get${noun}`, tags, access: 'user', role: 'admin',
        summary: get.summary, description: get.description,
        responses: { 200: jsonContent(setting.reply, 'The provider, or `connected: false`.') },
      }),
      async (c) => c.json(serialize(await get.run(c.get('ctx')), linkOrigin(c.env, c.req.url)), 200),
    )
    .openapi(
      defineRoute({
        method: 'delete', path, operationId: `disconnect${noun}`, tags, access: 'user', role: 'admin',
        summary: disconnect.summary, description: disconnect.description,
        responses: { 204: noContent },
      }),
      async (c) => {
        await disconnect.run(c.get('ctx'));
        return c.body(null, 204);
      },
    );
}
