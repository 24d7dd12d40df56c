// GET /api/rates: the cached USD rates, filtered by symbol, cheap to poll (ETag, short max-age).
import { invalidField } from '../../errors';
import { isCurrency } from '../../lib/currencies';
import { sha256Hex } from '../../lib/crypto';
import { defineRoute, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { getRatesSnapshot } from './refresh';
import { RatesQuery, Rates } from './schemas';
import { isStale, ratesUnavailable, type RatesSnapshot } from './snapshot';

function pickSymbols(snapshot: RatesSnapshot, symbols: string | undefined): Record<string, number> {
  if (!symbols) return snapshot.rates;
  const picked: Record<string, number> = {};
  for (const raw of symbols.split(',')) {
    const code = raw.trim();
    if (!isCurrency(code)) throw invalidField('symbols', `Unknown currency "${code}": use ISO 4217 codes in upper case.`);
    const rate = snapshot.rates[code];
    if (rate === undefined) throw invalidField('symbols', `No rate is published for ${code}.`);
    picked[code] = rate;
  }
  return picked;
}

export const rateRoutes = createRouter().openapi(
  defineRoute({
    method: 'get', path: '/rates', operationId: 'getRates', tags: ['Rates'], access: 'user', role: 'viewer', errors: [503],
    summary: 'Current exchange rates against USD',
    description: 'From a cache a cron trigger refreshes every 15 minutes. A refresh is refused whole (the last good rates stay) when a rate lies outside 10^-6 .. 10^9 units per USD, or a major currency (EUR, GBP, JPY, CHF, CAD, AUD, CNY) moved over 25 % from the last good rates or from those at least 24 hours older. 503 `rates_unavailable` when none were ever fetched. `If-None-Match` with the last `ETag` gets a 304 when nothing changed.',
    request: { query: RatesQuery },
    responses: {
      200: { ...jsonContent(Rates, 'The rates.'), headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } } },
      304: { description: 'Not modified since the ETag sent in If-None-Match.' },
    },
  }),
  async (c) => {
    const snapshot = await getRatesSnapshot(c.env);
    if (!snapshot) throw ratesUnavailable();
    const body = {
      base: 'USD' as const,
      rates: pickSymbols(snapshot, c.req.valid('query').symbols),
      as_of: snapshot.as_of,
      fetched_at: snapshot.fetched_at,
      source: snapshot.source,
      stale: isStale(snapshot),
      suspect: snapshot.suspect,
    };
    const etag = `"${(await sha256Hex(JSON.stringify(body))).slice(0, 32)}"`;
    c.header('ETag', etag);
    c.header('Cache-Control', 'private, max-age=60');
    if (c.req.header('If-None-Match')?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return c.body(null, 304);
    }
    return c.json(body, 200);
  },
);
