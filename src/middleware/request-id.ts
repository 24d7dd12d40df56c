import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ulid } from '../lib/ids';

// A caller's own X-Request-Id is kept when it is a sane token, so ids can be followed across systems.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('X-Request-Id');
  const id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : `req_${ulid()}`;
  c.set('requestId', id);
  c.header('X-Request-Id', id);
  await next();
  c.res.headers.set('X-Request-Id', id);
});
