// The request limits of §7, counted by the Workers rate-limiting binding (no D1 round trip, no
// state of ours). A limit is a binding, the number it admits a minute, and the bucket a request
// counts in: its key, its workspace, or the client's address on public routes.
//
// The binding answers only allowed / not allowed, so `RateLimit-Remaining` is not known on success:
// every response carries the tightest applicable limit as `RateLimit-Limit` and `RateLimit-Policy`,
// and a 429 names the limit that was reached, with Remaining 0, Reset and Retry-After at the end of
// the current 60-second window. Counting is per Cloudflare location (see the README): a client
// spread over several locations may get somewhat more than the limit, never a stricter one.
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

const WINDOW_SECONDS = 60;

type Limit = {
  /** What the 429's message calls the bucket (`per key`, `per workspace`, `per address`). */
  per: string;
  limit: number;
  binding: (env: Env) => RateLimit;
  bucket: (c: Context<AppEnv>) => string;
};

/**
 * The client's address as Cloudflare's edge reports it, as a rate-limit bucket; one shared bucket
 * where there is none (local runs). An IPv6 client usually holds a whole /64, so its /64 counts as
 * one address (an IPv4-mapped IPv6 address counts as the IPv4 address it maps).
 */
export const clientAddress = (c: Context) => addressBucket(c.req.header('CF-Connecting-IP') ?? 'unknown');

export function addressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

const secondsToWindowEnd = () => WINDOW_SECONDS - (Math.floor(Date.now() / 1000) % WINDOW_SECONDS);

const policyHeaders = (limit: number) => ({ 'RateLimit-Limit': String(limit), 'RateLimit-Policy': `${limit};w=${WINDOW_SECONDS}` });

/**
 * Counts the request in every bucket of `limits`; the first one over its limit answers 429. On
 * success the response describes the tightest limit: one a route's own middleware set further in
 * (the co-pilot's 10 a minute) is kept when it is tighter than this one's.
 */
export function rateLimit(...limits: Limit[]) {
  const tightest = Math.min(...limits.map((l) => l.limit));
  return createMiddleware<AppEnv>(async (c, next) => {
    const answers = await Promise.all(limits.map((l) => l.binding(c.env).limit({ key: l.bucket(c) })));
    const reached = limits.find((_, i) => !answers[i]!.success);
    if (reached) {
      const reset = String(secondsToWindowEnd());
      throw new ApiError('rate_limited', `Too many requests: at most ${reached.limit} a minute ${reached.per}.`, undefined, {
        ...policyHeaders(reached.limit),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': reset,
        'Retry-After': reset,
      });
    }
    await next();
    // A 429 from further in (a daily limit of the route's) names the limit it reached: it is kept as it is.
    if (c.res.status === 429) return;
    const already = Number(c.res.headers.get('RateLimit-Limit') ?? Infinity);
    if (tightest < already) for (const [name, value] of Object.entries(policyHeaders(tightest))) c.res.headers.set(name, value);
  });
}

const perKey = (limit: number, binding: Limit['binding']): Limit => ({ per: 'per key', limit, binding, bucket: (c) => `key:${c.get('ctx').keyId}` });
const perWorkspace = (limit: number, binding: Limit['binding'], scope: string): Limit => ({
  per: 'per workspace',
  limit,
  binding,
  bucket: (c) => `${scope}:${c.get('ctx').workspaceId}`,
});
const perUser = (limit: number, binding: Limit['binding'], scope: string): Limit => ({
  per: 'per user',
  limit,
  binding,
  bucket: (c) => `${scope}:${c.get('ctx').userId}`,
});
const perAddress = (limit: number, binding: Limit['binding'], scope: string): Limit => ({
  per: 'per address',
  limit,
  binding,
  bucket: (c) => `${scope}:${clientAddress(c)}`,
});

/**
 * Every keyed request: 120 a minute per key, 600 per workspace over all its keys, and 600 per user
 * over all their keys and workspaces, so neither minting keys nor making workspaces buys more. (The
 * user's bucket shares the workspace limiter's binding: same limit, its own bucket names.)
 */
export const apiRateLimit = rateLimit(
  perKey(120, (env) => env.RATE_LIMITER),
  perWorkspace(600, (env) => env.WORKSPACE_RATE_LIMITER, 'api'),
  perUser(600, (env) => env.WORKSPACE_RATE_LIMITER, 'api-user'),
);

/** Co-pilot jobs: 10 a minute per workspace, however many keys ask, and 10 per user, however many workspaces. */
export const aiRateLimit = rateLimit(perWorkspace(10, (env) => env.AI_RATE_LIMITER, 'ai'), perUser(10, (env) => env.AI_RATE_LIMITER, 'ai-user'));

/** Public forms (the waitlist, accepting an invitation): 10 a minute per address, each form its own bucket. */
export const publicFormRateLimit = (form: string) => rateLimit(perAddress(10, (env) => env.PUBLIC_FORM_RATE_LIMITER, form));

/** Public gig reads: 300 a minute per address. */
export const gigReadRateLimit = rateLimit(perAddress(300, (env) => env.GIG_READ_RATE_LIMITER, 'gigs'));

/** Hosted invoice pages and their PDFs: 60 a minute per address. */
export const hostedPageRateLimit = rateLimit(perAddress(60, (env) => env.HOSTED_PAGE_RATE_LIMITER, 'hosted'));
