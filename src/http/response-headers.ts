// The response headers a client reads (§8), each declared once in components.headers of
// /openapi.json and referenced from the responses that carry it: the error responses (the request
// id; the rate limit on a 429), the success of a keyed POST (`Idempotent-Replayed`) and a queued
// job's `Location`. The introduction says which answers carry `X-Request-Id` (all) and
// `X-D1-Bookmark`, which are not repeated on each success.

const integer = { type: 'integer' as const, minimum: 0 };

export const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'This request\'s id (yours, if you sent a sane one); an error\'s `request_id`.', schema: { type: 'string' as const } },
  'X-D1-Bookmark': { description: 'Send it back on a later request for reads at least as fresh as this answer (**Read your writes**).', schema: { type: 'string' as const } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: integer },
  'RateLimit-Limit': { description: 'Requests a minute that the tightest applicable limit admits.', schema: integer },
  'RateLimit-Policy': { description: 'That limit as `<requests>;w=<seconds>`.', schema: { type: 'string' as const, example: '120;w=60' } },
  'RateLimit-Remaining': { description: 'Requests left in the window: 0 on a 429.', schema: integer },
  'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: integer },
  Location: { description: 'The path of what the request created.', schema: { type: 'string' as const } },
  'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.', schema: { type: 'string' as const, enum: ['true'] } },
};

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** References to the named headers, as a response's `headers`. */
export const headerRefs = (...names: ResponseHeader[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** What every error response carries. */
export const ERROR_HEADERS: ResponseHeader[] = ['X-Request-Id', 'X-D1-Bookmark'];
/** What a 429 carries besides. */
export const RATE_LIMIT_HEADERS: ResponseHeader[] = ['Retry-After', 'RateLimit-Limit', 'RateLimit-Policy', 'RateLimit-Remaining', 'RateLimit-Reset'];
