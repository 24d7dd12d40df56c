// Route definitions for @hono/zod-openapi with the error responses every operation can give,
// so /openapi.json describes each failure a client can meet, not just the happy path.
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { requireAdmin, requireKey, requireRole } from '../middleware/auth';
import type { Role } from '../lib/context';
import { type ClaimTiming, idempotency, type IdempotencyMode, type ReplayRestore } from '../middleware/idempotency';
import { readJsonBody } from '../middleware/json-body';
import { readUploadBody } from '../middleware/upload-body';
import { apiRateLimit } from '../middleware/rate-limit';
import type { ErrorCode } from '../errors';
import { ErrorSchema } from '../lib/schemas';
import { errorRangeDescription, GENERIC_ERROR_STATUSES } from './error-ranges';
import { ERROR_HEADERS, headerRefs, RATE_LIMIT_HEADERS } from './response-headers';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON (`invalid_json`) or a missing `Idempotency-Key` where one is required.',
  401: 'A missing, unknown, revoked or malformed API key (`unauthorized`).',
  403: 'A role below the one the operation needs, or a key on an operator route (`forbidden`; the message names the role).',
  404: 'No such record, or one that belongs to someone else (`not_found`).',
  409: 'The record\'s state or a uniqueness rule does not allow this (`invalid_state`, `conflict`); `conflict` while a request with the same `Idempotency-Key` runs, with `Retry-After`.',
  410: 'Gone (`invitation_expired`).',
  413: 'Body over 100 KB (`payload_too_large`).',
  415: 'A body without `Content-Type: application/json` (`unsupported_media_type`).',
  422: 'Body, query or path values fail validation (`validation_failed`); `details` names each path.',
  429: 'Rate limit reached (`rate_limited`); see `Retry-After`.',
  500: 'Unexpected failure on our side (`internal_error`); nothing internal is disclosed.',
  502: 'A payment provider refused the request or did not answer (`provider_error`); nothing was changed.',
  503: 'No usable exchange rates (`rates_unavailable`).',
};

// The code each status's example shows (the schema alone would show the first code for every status).
const EXAMPLE_CODES: Record<number, ErrorCode> = {
  400: 'invalid_json', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'invalid_state', 410: 'invitation_expired',
  413: 'payload_too_large', 415: 'unsupported_media_type', 422: 'validation_failed', 429: 'rate_limited', 500: 'internal_error',
  502: 'provider_error', 503: 'rates_unavailable',
};

// A message as the server writes it for that code (the description above says what the status means).
const EXAMPLE_MESSAGES: Record<number, string> = {
  400: 'The body is not valid JSON.', 401: 'The API key is unknown or has been revoked.',
  403: 'This operation needs the admin role or higher in this workspace; your role is member.', 404: 'Client not found.',
  409: 'Invoice INV-000042 is open; only drafts can be changed or deleted.', 410: 'This invitation has expired; ask for a new one.',
  413: 'The body is over 100 KB.', 415: 'Send the body as JSON with Content-Type: application/json.', 422: 'The request is not valid.',
  429: 'Too many requests: at most 120 a minute per key.', 500: 'Something went wrong on our side. Try again; if it persists, quote the request id.',
  502: 'The payment provider refused the refund. Nothing was changed; try again.', 503: 'No exchange rates are available yet; try again shortly.',
};

function errorExample(status: number) {
  const code = EXAMPLE_CODES[status] ?? 'internal_error';
  const details = status === 422 ? { details: [{ path: 'currency', message: 'Unknown currency: use an ISO 4217 code in upper case, such as USD.' }] } : {};
  return { error: { code, message: EXAMPLE_MESSAGES[status] ?? 'Error.', request_id: 'req_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', ...details } };
}

// A range shows one example: a 409's or a 403's where it names one, so that each example the
// statuses had as entries of their own is still shown by some range (400 by the public write's,
// 401 by the keyed read's, 429 by the public read's).
const RANGE_EXAMPLE_ORDER = [409, 403, 400, 401, 429];
const exampleStatus = (statuses: number[]) => RANGE_EXAMPLE_ORDER.find((status) => statuses.includes(status)) ?? statuses[0]!;

const errorResponse = (statuses: number[], description: string) => ({
  description,
  // A 429 and a 503 say when to try again (§3, §8); a 409 does while an idempotent request is in flight.
  headers: headerRefs(...ERROR_HEADERS, ...(statuses.includes(429) ? RATE_LIMIT_HEADERS : []), ...(statuses.some((s) => s === 409 || s === 503) ? (['Retry-After'] as const) : [])),
  content: { 'application/json': { schema: ErrorSchema, example: errorExample(exampleStatus(statuses)) } },
});

/** An entry per status particular to the operation, and one `4XX` naming the generic ones it can give (error-ranges.ts). */
export function errorResponses(statuses: number[]) {
  const all = [...new Set(statuses)].sort();
  const generic = GENERIC_ERROR_STATUSES.filter((status) => all.includes(status));
  const own = all.filter((status) => !generic.includes(status));
  return {
    ...Object.fromEntries(own.map((status) => [status, errorResponse([status], ERROR_DESCRIPTIONS[status] ?? 'Error.')])),
    ...(generic.length ? { '4XX': errorResponse(generic, errorRangeDescription(generic, (status) => ERROR_DESCRIPTIONS[status]!)) } : {}),
  };
}

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** A success that may be the stored answer to an earlier request with the same Idempotency-Key says so. */
export const withReplayHeader = <T extends object>(response: T) =>
  ({ ...response, headers: { ...((response as { headers?: object }).headers ?? {}), ...headerRefs('Idempotent-Replayed') } }) as T;

export const noContent = { description: 'Done; no body.' };

// An action that takes no fields still reads its body: `{}` or nothing is fine, and a field it does
// not know is a 422 before anything changes, as on every other body.
const NoFields = z.strictObject({}).openapi('NoFields', { description: 'This action takes no fields: send no body, or `{}`.' });
const noFieldsBody = { required: false, content: { 'application/json': { schema: NoFields } } };

/** Who may call an operation. A keyed route must name the lowest role that may: `any` admits
 *  every member (account routes), `viewer` and up are the workspace roles of §9. */
export type AccessRule = { access: 'public' | 'admin'; role?: never } | { access: 'user'; role: Role | 'any' };

/** The role as the document states it (`x-required-role`). */
const requiredRole = (rule: AccessRule) => (rule.access === 'user' ? rule.role : rule.access === 'admin' ? 'operator' : 'public');

// The document's introduction says a key acts in one workspace with its role there, and that the
// role an operation names admits the roles above it too, so the sentences name the role only:
// repeated on some hundred operations, every word counts ("or higher" on each was 1 KB).
const ROLE_SENTENCES: Record<string, string> = {
  public: 'Public: no key needed.',
  operator: 'Needs the operator\'s `ADMIN_TOKEN`.',
  any: 'Role: any member.',
  viewer: 'Role: `viewer`.',
  member: 'Role: `member`.',
  admin: 'Role: `admin`.',
  owner: 'Role: `owner`.',
};

function accessMiddleware(rule: AccessRule): MiddlewareHandler[] {
  if (rule.access === 'public') return [];
  if (rule.access === 'admin') return [requireAdmin];
  // 401, then 403 for the role, before the rate limit counts the request or anything reads it.
  const role = rule.role as Role | 'any';
  return role === 'any' || role === 'viewer' ? [requireKey, apiRateLimit] : [requireKey, requireRole(role), apiRateLimit];
}

/**
 * createRoute plus what every operation shares. Access: `user` routes authenticate the key, check
 * the role the route names (`role`, required) and rate-limit before anything else runs; `admin`
 * routes need ADMIN_TOKEN; a public route's `publicLimit` (per client address) runs first. The role is stated in the document as `x-required-role` and in words.
 * Errors documented: 500 always; 401/429 with a key, 403 for admin routes and roles above viewer;
 * 400/413/415 on any non-GET; 422 with a body or a query; 404 with path ids; `errors` adds the
 * operation's own. Keyed POSTs take `Idempotency-Key` (`idempotency: 'required'` for money-moving ones;
 * `replay` for answers with fields recomputed rather than stored; `idempotencyClaim: 'with-first-batch'`
 * where the key's claim may ride on the route's first batch, see ClaimTiming). `upload` (bytes): the body is a
 * file of at most that size, read by readUploadBody instead of JSON.
 */
export function defineRoute<R extends RouteConfig>(
  config: R & AccessRule & {
    operationId: string; errors?: number[]; idempotency?: IdempotencyMode; replay?: ReplayRestore; idempotencyClaim?: ClaimTiming; publicLimit?: MiddlewareHandler;
    upload?: number;
  },
) {
  const { access, role: _role, errors: ownErrors = [], idempotency: idempotencyMode, replay, idempotencyClaim, publicLimit, upload, ...route } = config;
  const rule = { access, role: _role } as AccessRule;
  const roleNeeded = requiredRole(rule);
  const errors = [...ownErrors];
  const extra: MiddlewareHandler[] = route.middleware ? ([route.middleware].flat() as MiddlewareHandler[]) : [];
  // Every keyed POST honours Idempotency-Key; money-moving ones require it.
  const idempotent = route.method === 'post' && access === 'user';
  const mode = idempotencyMode ?? 'optional';
  let responses = route.responses;
  if (idempotent) {
    const successStatus = Number(Object.keys(route.responses).find((status) => status.startsWith('2')) ?? 200);
    extra.push(idempotency(mode, successStatus, replay, idempotencyClaim));
    responses = { ...responses, [successStatus]: withReplayHeader(responses[successStatus]!) };
    errors.push(409, 422);
    if (mode === 'required') errors.push(400);
  }
  if (route.method === 'post' && !route.request?.body) route.request = { ...route.request, body: noFieldsBody };
  const statuses = [500, ...errors];
  if (access !== 'public' || publicLimit) statuses.push(429);
  if (access !== 'public') statuses.push(401);
  if (access === 'admin' || (access === 'user' && roleNeeded !== 'any' && roleNeeded !== 'viewer')) statuses.push(403);
  // Any body sent to a non-GET route is read, so even a body-less action can answer 400/413/415.
  if (route.method !== 'get') statuses.push(400, 413, 415);
  if (route.request?.body) statuses.push(422);
  if (route.request?.query) statuses.push(422);
  if (route.request?.params) statuses.push(404);
  const security = access === 'public' ? [] : [{ [access === 'admin' ? 'AdminToken' : 'ApiKey']: [] }];
  const idempotencyHeader = {
    name: 'Idempotency-Key',
    in: 'header' as const,
    required: mode === 'required',
    // The rules are the introduction's (openapi/info.ts), written there once rather than on the shared header
    // and again on each POST that requires it.
    description: 'Makes a retry safe (**Idempotency** in the introduction).',
    // Visible ASCII, as the middleware checks (a header cannot carry more anyway).
    schema: { type: 'string' as const, minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  };
  // The body is read only after the caller has been let in: 401 and 403 say nothing about it.
  const readBody = upload ? readUploadBody(upload) : readJsonBody;
  const middleware = [...(publicLimit ? [publicLimit] : []), ...accessMiddleware(rule), ...(route.method === 'get' ? [] : [readBody]), ...extra];
  return createRoute({
    ...route,
    ...(idempotent ? { parameters: [...((route as { parameters?: unknown[] }).parameters ?? []), idempotencyHeader] } : {}),
    // None at all rather than an empty list, so a route with none can be registered as it is (GET /health).
    ...(middleware.length ? { middleware } : {}),
    security,
    'x-required-role': roleNeeded,
    description: [route.description, ROLE_SENTENCES[roleNeeded]].filter(Boolean).join('\n\n'),
    responses: { ...errorResponses(statuses), ...responses },
  } as unknown as R) as R;
}
