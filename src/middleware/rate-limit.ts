// Per-key rate limiting on the Workers rate-limit binding (120/min; 10/min for AI suggestions).
// The binding answers only allowed / not allowed, so RateLimit-Remaining is not known on success:
// every response carries the policy, and a 429 adds Remaining 0, Reset and Retry-After, both set to
// the end of the current 60-second window.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

const WINDOW_SECONDS = 60;

export function rateLimit(pick: (env: Env) => RateLimit, limit: number, scope: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const policy = { 'RateLimit-Limit': String(limit), 'RateLimit-Policy': `${limit};w=${WINDOW_SECONDS}` };
    const { success } = await pick(c.env).limit({ key: `${scope}:${c.get('ctx').keyId}` });
    if (!success) {
      const reset = String(WINDOW_SECONDS - (Math.floor(Date.now() / 1000) % WINDOW_SECONDS));
      throw new ApiError('rate_limited', `Too many requests: at most ${limit} a minute per key.`, undefined, {
        ...policy,
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': reset,
        'Retry-After': reset,
      });
    }
    await next();
    for (const [name, value] of Object.entries(policy)) c.res.headers.set(name, value);
  });
}

export const apiRateLimit = rateLimit((env) => env.RATE_LIMITER, 120, 'api');
export const aiRateLimit = rateLimit((env) => env.AI_RATE_LIMITER, 10, 'ai');
