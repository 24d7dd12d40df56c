// What every outbound call to a money provider (Stripe, later Wise) shares: the record's own id
// as the Idempotency-Key, so a retried create or refund can never act twice at the provider;
// a time limit; and an answer that is read (up to 1 MB) as JSON or reported as garbage, never thrown raw.
import { OUTSIDE_ANSWER_MAX_BYTES, readAnswerText } from './bounded-read';

export const PROVIDER_TIMEOUT_MS = 10_000;

/** The Idempotency-Key of a provider call that creates or acts for one of our records: its id. */
export const idempotencyHeaders = (recordId: string) => ({ 'Idempotency-Key': recordId });

export type ProviderAnswer = { ok: true; status: number; body: Record<string, unknown> } | { ok: false; status: number | null; message: string; body?: Record<string, unknown> };

/** One call; network failures, timeouts (before or during the answer), answers past the size cap and non-JSON answers come back as `ok: false` with a reason. */
export async function callProvider(url: string, init: RequestInit, timeoutMs = PROVIDER_TIMEOUT_MS): Promise<ProviderAnswer> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return { ok: false, status: null, message: `unreachable (${err instanceof Error ? err.name : 'error'})` };
  }
  return readProviderAnswer(res);
}

/** An outside answer read as `callProvider` reads it (up to 1 MB, a JSON object or a reason), for a call made otherwise (a binding's raw response). */
export async function readProviderAnswer(res: Response): Promise<ProviderAnswer> {
  let text: string | null;
  try {
    text = await readAnswerText(res);
  } catch (err) {
    // The time limit (or the connection) ended the answer after its headers: no answer, as much as one that never began.
    return { ok: false, status: null, message: `stopped answering (${err instanceof Error ? err.name : 'error'})` };
  }
  if (text === null) return { ok: false, status: res.status, message: `answered ${res.status} with more than ${OUTSIDE_ANSWER_MAX_BYTES / (1024 * 1024)} MB, read no further` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, status: res.status, message: `answered ${res.status} with something that is not JSON` };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, status: res.status, message: `answered ${res.status} with an unexpected shape` };
  const record = body as Record<string, unknown>;
  if (!res.ok) return { ok: false, status: res.status, message: `answered ${res.status}`, body: record };
  return { ok: true, status: res.status, body: record };
}
