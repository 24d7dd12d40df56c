// The upstream rates provider (open.er-api.com's shape by default): fetched with a timeout and
// validated before anything is believed, so a broken provider can never poison the cache.
import { z } from '@hono/zod-openapi';
import { OUTSIDE_ANSWER_MAX_BYTES, readAnswerText } from '../../lib/bounded-read';
import type { RatesSnapshot } from './snapshot';

const UpstreamRates = z.object({
  result: z.literal('success'),
  base_code: z.literal('USD'),
  time_last_update_unix: z.number().int().positive(),
  rates: z
    .record(z.string().regex(/^[A-Z]{3}$/), z.number().positive().finite())
    .refine((rates) => rates.USD === 1, 'USD must be 1 in a USD-based table.')
    .refine((rates) => Object.keys(rates).length >= 2 && Object.keys(rates).length <= 500, 'Implausible number of rates.'),
});

export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

/** A real answer is ~10 KB; reading more than this is work (and memory) a broken or hostile upstream makes us do. */
export const MAX_BODY_BYTES = OUTSIDE_ANSWER_MAX_BYTES;

/** The upstream's rates as a snapshot, not yet vetted against the last good one (sanity.ts). */
export async function fetchUpstreamRates(url: string, timeoutMs: number, now = new Date()): Promise<RatesSnapshot> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { Accept: 'application/json' } });
  } catch (err) {
    throw new UpstreamError(err instanceof Error && err.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : `unreachable: ${String(err)}`);
  }
  if (!response.ok) throw new UpstreamError(`answered HTTP ${response.status}`);
  const text = await readAnswerText(response, MAX_BODY_BYTES);
  if (text === null) throw new UpstreamError(`answered more than ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError('answered something that is not JSON');
  }
  const parsed = UpstreamRates.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`answered an unexpected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return {
    base: 'USD',
    rates: parsed.data.rates,
    as_of: new Date(parsed.data.time_last_update_unix * 1000).toISOString(),
    fetched_at: now.toISOString(),
    source: new URL(url).host,
    suspect: [],
  };
}
