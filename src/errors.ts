// The one error model: a closed set of codes, one table code → status, one error class,
// and one onError that turns anything thrown into the envelope of the contract (§3).
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_signature: 400,
  idempotency_key_required: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_state: 409,
  conflict: 409,
  invoice_number_taken: 409,
  payouts_not_configured: 409,
  invitation_used: 409,
  invitation_expired: 410,
  link_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_reused: 422,
  einvoice_incomplete: 422,
  rate_limited: 429,
  internal_error: 500,
  provider_error: 502,
  rates_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type ErrorDetail = { path: string; message: string };

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found.`);

export const invalidState = (message: string) => new ApiError('invalid_state', message);

/** 401, with the challenge that names the scheme a key is sent in. */
export const unauthorized = (message: string) =>
  new ApiError('unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="workspace-api"' });

/** A 422 that names one field, for checks the schema cannot make (ownership of a referenced id, …). */
export const invalidField = (path: string, message: string) =>
  new ApiError('validation_failed', 'The request is not valid.', [{ path, message }]);

export type ErrorBody = {
  error: { code: ErrorCode; message: string; request_id: string; details?: ErrorDetail[] };
};

export function errorResponse(c: Context, err: ApiError): Response {
  const body: ErrorBody = {
    error: {
      code: err.code,
      message: err.message,
      request_id: c.get('requestId') ?? '',
      ...(err.details?.length ? { details: err.details } : {}),
    },
  };
  for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
  return c.json(body, err.status);
}

// Hono's own exceptions (body limit, malformed JSON from a validator, …) keep their status but speak our codes.
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_json',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

export function onError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    const code = HTTP_EXCEPTION_CODES[err.status] ?? 'validation_failed';
    return errorResponse(c, new ApiError(code, err.message || 'The request could not be processed.'));
  }
  // Unknown: log everything for us, tell the client nothing internal.
  console.error(JSON.stringify({ level: 'error', request_id: c.get('requestId'), message: err.message, stack: err.stack }));
  return errorResponse(c, new ApiError('internal_error', 'Something went wrong on our side. Try again; if it persists, quote the request id.'));
}
