// When a failed delivery is tried again (§11): after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
// (8 attempts in all), each delay plus 0–20 % jitter so that retries to one receiver spread out. A
// `Retry-After` on the failed answer replaces the delay, at least 5 s and at most 10 h, so a
// receiver answering `Retry-After: 0` cannot turn the retries into a busy loop.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const MIN_RETRY_AFTER_MS = 5 * SECOND;
export const MAX_RETRY_AFTER_MS = 10 * HOUR;
/** Every attempt failing for this long disables the endpoint (`failing`). */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * HOUR;

/** `Retry-After` as milliseconds from `now` (delta-seconds or an HTTP date), within 5 s .. 10 h; null if absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * SECOND : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(ms, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS);
}

/** The delay before attempt `attempt + 1`, or null when `attempt` was the last. */
export function nextDelayMs(attempt: number, retryAfter: number | null, random = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  if (retryAfter !== null) return retryAfter;
  const base = RETRY_DELAYS_MS[attempt - 1]!;
  return Math.round(base * (1 + 0.2 * random()));
}
