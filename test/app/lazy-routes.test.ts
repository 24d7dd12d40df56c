// Module routers built on first use (src/http/lazy-routes.ts): a request builds only the routers
// that own its path, and gets the answers a router mounted with app.route would give it: its path
// parameters, the app's middleware around it, the one error envelope, 405 with Allow after another
// module was built first, 404 for a path nothing serves.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/env';
import { onError, notFound } from '../../src/errors';
import { lazyRouter, mountLazily, type LazyMount, type ModuleRouter } from '../../src/http/lazy-routes';
import { allowedMethodsOf } from '../../src/lib/allowed-methods';
import { apiListing } from '../../src/listings/api';
import { pageListing } from '../../src/listings/pages';
import { v1Listing } from '../../src/listings/v1';
import { ApiError } from '../../src/errors';

/** An app as src/app.ts builds it, with two small modules and a log of what ran. */
function appWithModules() {
  const built: string[] = [];
  const ran: string[] = [];
  const module = (name: string, router: () => ModuleRouter) => lazyRouter([`/${name}`], async () => (built.push(name), router()));
  const things = module('things', () =>
    new OpenAPIHono<AppEnv>()
      .use('/things/*', async (_c, next) => {
        ran.push('things middleware');
        await next();
        ran.push(`things middleware saw ${_c.res.status}`);
      })
      .get('/things/:id', (c) => c.json({ id: c.req.param('id') }))
      .post('/things', (c) => c.json({ made: true }, 201))
      .delete('/things/:id', () => {
        throw new ApiError('invalid_state', 'Not now.');
      }),
  );
  const others = module('others', () => new OpenAPIHono<AppEnv>().get('/others', (c) => c.json({ others: [] })));
  const app = new Hono<AppEnv>({ strict: false });
  app.use('*', async (c, next) => {
    ran.push('app middleware');
    await next();
    c.header('X-App', 'yes');
  });
  app.onError(onError);
  const mounts: LazyMount[] = [{ at: '/v1', router: things }, { at: '/v1', router: others }];
  const modules = mountLazily(app, mounts, onError);
  app.notFound((c) => {
    const allow = allowedMethodsOf([...app.routes, ...modules.builtRoutes()])(c.req.path);
    if (allow.length) throw new ApiError('method_not_allowed', 'No.', undefined, { Allow: allow.join(', ') });
    throw notFound('Route');
  });
  return { app, built, ran };
}

describe('module routers built on first use', () => {
  it('builds only the module that owns the path, and runs its route inside the app\'s middleware', async () => {
    const { app, built, ran } = appWithModules();
    const response = await app.request('/v1/others');
    expect(response.status).toBe(200);
    expect(response.headers.get('X-App')).toBe('yes');
    expect(built).toEqual(['others']);
    expect(ran).toEqual(['app middleware']);
  });

  it('gives a route its own path parameters, with or without a trailing slash, and HEAD as GET', async () => {
    const { app } = appWithModules();
    expect(await (await app.request('/v1/things/th_1')).json()).toEqual({ id: 'th_1' });
    expect(await (await app.request('/v1/things/th_2/')).json()).toEqual({ id: 'th_2' });
    const head = await app.request('/v1/things/th_3', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers a route\'s error with the envelope, which the route\'s middleware sees as the answer', async () => {
    const { app, ran } = appWithModules();
    const response = await app.request('/v1/things/th_1', { method: 'DELETE' });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_state');
    expect(response.headers.get('X-App')).toBe('yes');
    expect(ran).toEqual(['app middleware', 'things middleware', 'things middleware saw 409']);
  });

  it('answers 405 with Allow on a module first asked after another one was built, and 404 where nothing serves', async () => {
    const { app, built } = appWithModules();
    await app.request('/v1/others');
    const put = await app.request('/v1/things/th_1', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('DELETE, GET, HEAD');
    expect((await app.request('/v1/things', { method: 'GET' })).headers.get('Allow')).toBe('POST');
    expect((await app.request('/v1/things/th_1/parts')).status).toBe(404);
    expect((await app.request('/v1/nothing')).status).toBe(404);
    expect(built).toEqual(['others', 'things']);
  });
});

describe('the listings', () => {
  it('name, for each router, the first segments of every path it serves', async () => {
    for (const { at, router } of [...apiListing, ...v1Listing, ...pageListing]) {
      const prefixes = router.owns.map((own) => (own === '/' ? at : `${at}${own}`));
      const routes = new Hono().route(at, await router.load()).routes;
      for (const route of routes) {
        expect(prefixes.some((prefix) => route.path === prefix || route.path.startsWith(`${prefix}/`)), `${route.method} ${route.path} under ${prefixes.join(', ')}`).toBe(true);
      }
    }
  });
});
