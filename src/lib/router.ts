// Every module router is an OpenAPIHono with the shared validator hook, so a route's zod schemas
// both validate requests and describe the operation in /openapi.json.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { throwOnInvalid } from './validation';

export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: (result) => throwOnInvalid(result) });
}
