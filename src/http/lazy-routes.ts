// Module routers built on the first request that needs them. Building a router builds the zod
// schemas and route definitions of its operations, which for all of them was most of the worker's
// cold start; the code stays in the one bundle, but its top level runs only when imported. A request
// builds the routers that own the first segment of its path under their mount (GET /v1/invoices:
// the routers with /invoices paths), /openapi.json all of them.
//
// The app matches a group's prefix with one catch-all handler; it runs the matched routes of the
// group's routers on the request's own context, as Hono runs the routes of a mounted router, so the
// app's middleware, error handler and not-found answer wrap them as before.
import { type Context, type ErrorHandler, Hono, type MiddlewareHandler, type Next } from 'hono';
import { HonoRequest } from 'hono/request';
import type { RouterRoute } from 'hono/types';
import type { AppEnv } from '../env';

// A module's router: an OpenAPIHono with its operations, or a plain Hono for the hosted pages.
export type ModuleRouter = Hono<AppEnv, any, any>;

/** A router and the first path segments it serves under its mount (`/` for all of them). */
export type LazyRouter = { owns: string[]; load: () => Promise<ModuleRouter> };

/** A router mounted at `at` (a full path: `/api/workflow`). */
export type LazyMount = { at: string; router: LazyRouter };

/** `load` runs once, however many mounts and requests ask for the router. */
export function lazyRouter(owns: string[], load: () => Promise<ModuleRouter>): LazyRouter {
  let loading: Promise<ModuleRouter> | undefined;
  return { owns, load: () => (loading ??= load()) };
}

type Matched = [[Function, RouterRoute], unknown][];

/**
 * Runs matched handlers as Hono's compose does (hono/compose is not among the package's exports): each
 * one's error becomes the error handler's answer.
 */
function runMatched(c: Context<AppEnv>, matched: Matched, onError: ErrorHandler<AppEnv>, next: Next) {
  let index = -1;
  const dispatch = async (i: number): Promise<void> => {
    if (i <= index) throw new Error('next() called multiple times');
    index = i;
    const handler = i < matched.length ? (matched[i]![0][0] as MiddlewareHandler<AppEnv>) : next;
    if (i < matched.length) c.req.routeIndex = i;
    let res: Response | void;
    let isError = false;
    try {
      res = (await handler(c, () => dispatch(i + 1))) as Response | void;
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      c.error = err;
      res = await onError(err, c);
      isError = true;
    }
    if (res instanceof Response && (!c.finalized || isError)) c.res = res;
  };
  return dispatch(0);
}

/** The app-level handler of one prefix: builds its routers, then runs what matches or passes on. */
function dispatchTo(build: () => Promise<Hono<AppEnv>>, onError: ErrorHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const routes = await build();
    // Hono answers HEAD with the GET route.
    const matchResult = routes.router.match(c.req.method === 'HEAD' ? 'GET' : c.req.method, c.req.path);
    if (!matchResult[0].length) return next();
    // The routes read their path parameters from their own match.
    const req = new HonoRequest(c.req.raw, c.req.path, matchResult);
    req.bodyCache = c.req.bodyCache;
    Object.defineProperty(c, 'req', { value: req, configurable: true });
    await runMatched(c, matchResult[0] as Matched, onError, next);
  };
}

/** The full path a mount's owned segment starts. */
const prefixOf = (at: string, own: string) => (own === '/' ? at : `${at === '/' ? '' : at}${own}`);

/**
 * Mounts the routers on the app by the prefixes they own, in the order given (which decides, as with
 * app.route, which of two routes on one path answers). Answers the routes built so far, for the
 * not-found answer's 405 check, and a way to load every router, for the document.
 */
export function mountLazily(app: Hono<AppEnv>, mounts: LazyMount[], onError: ErrorHandler<AppEnv>) {
  const groups = new Map<string, LazyMount[]>();
  for (const mount of mounts) {
    for (const prefix of mount.router.owns.map((own) => prefixOf(mount.at, own))) groups.set(prefix, [...(groups.get(prefix) ?? []), mount]);
  }
  const built: RouterRoute[] = [];
  for (const [prefix, members] of groups) {
    let building: Promise<Hono<AppEnv>> | undefined;
    const build = () =>
      (building ??= Promise.all(members.map((mount) => mount.router.load())).then((routers) => {
        const routes = new Hono<AppEnv>();
        members.forEach((mount, i) => routes.route(mount.at, routers[i]!));
        built.push(...routes.routes);
        return routes;
      }));
    // `/prefix/*` matches the prefix itself too.
    app.all(`${prefix}/*`, dispatchTo(build, onError));
  }
  return {
    builtRoutes: (): readonly RouterRoute[] => built,
    /** Every router, one at a time, awaiting `between` after each. */
    loadAll: async (between: () => Promise<void>) => {
      const loaded: { at: string; router: ModuleRouter }[] = [];
      for (const mount of mounts) {
        loaded.push({ at: mount.at, router: await mount.router.load() });
        await between();
      }
      return loaded;
    },
  };
}
