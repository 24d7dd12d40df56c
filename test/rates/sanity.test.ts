// The rates the cron is allowed to believe (§5), at the edges of each rule: a snapshot from the
// future or older than the last good one is refused whole, as is one that moves a major currency
// more than 25 % or drops one; a minor currency that jumps by more than a factor of 10 keeps its last good rate
// and is named in `suspect`. `stale` follows the provider's own publication time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { deleteRates, mockUpstream, upstreamAnswer } from '../helpers/rates';
import { sendTransfer } from '../helpers/transfers';
import { runScheduled } from '../helpers/worker';

const HOUR_S = 3600;
const nowS = () => Math.floor(Date.now() / 1000);
const LAST_GOOD = { EUR: 0.9, JPY: 150, NGN: 1500, KWD: 0.307 };

let user: TestUser;
const rates = async () => (await call('GET', '/api/rates', { key: user.key })).body;

/** Runs the cron against an upstream answering `answer`. */
async function refreshWith(answer: Record<string, unknown>) {
  mockUpstream(() => Response.json(answer));
  await runScheduled();
  vi.restoreAllMocks();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'log').mockImplementation(() => {});
}

describe('rates sanity', () => {
  beforeEach(async () => {
    user ??= await createUser();
    await deleteRates();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await refreshWith(upstreamAnswer(LAST_GOOD, nowS() - 2 * HOUR_S));
  });
  afterEach(() => vi.restoreAllMocks());

  it('serves a good snapshot with an empty suspect list', async () => {
    expect(await rates()).toMatchObject({ rates: { EUR: 0.9, NGN: 1500 }, suspect: [], stale: false });
  });

  it.each([
    ['published more than 5 minutes in the future', () => upstreamAnswer({ ...LAST_GOOD, EUR: 0.91 }, nowS() + 6 * 60)],
    ['older than the last good one', () => upstreamAnswer({ ...LAST_GOOD, EUR: 0.91 }, nowS() - 3 * HOUR_S)],
    ['moving EUR by 26 %', () => upstreamAnswer({ ...LAST_GOOD, EUR: 0.9 * 1.26 }, nowS() - HOUR_S)],
    ['moving JPY down by 26 %', () => upstreamAnswer({ ...LAST_GOOD, JPY: 150 * 0.74 }, nowS() - HOUR_S)],
    ['with a rate of zero', () => upstreamAnswer({ ...LAST_GOOD, NGN: 0 }, nowS() - HOUR_S)],
    ['with a negative rate', () => upstreamAnswer({ ...LAST_GOOD, KWD: -0.307 }, nowS() - HOUR_S)],
    ['that lacks EUR, which the last good one had', () => upstreamAnswer({ JPY: 150, NGN: 1500, KWD: 0.307 }, nowS() - HOUR_S)],
  ])('refuses a snapshot %s and keeps the last good one', async (_, answer) => {
    const before = await rates();
    await refreshWith(answer());
    expect(await rates()).toEqual(before);
  });

  it.each([
    ['published 4 minutes in the future', upstreamAnswer({ ...LAST_GOOD, EUR: 0.91 }, nowS() + 4 * 60), 0.91],
    ['moving EUR by 24 %', upstreamAnswer({ ...LAST_GOOD, EUR: 0.9 * 1.24 }, nowS() - HOUR_S), 0.9 * 1.24],
  ])('accepts a snapshot %s', async (_, answer, eur) => {
    await refreshWith(answer);
    expect((await rates()).rates.EUR).toBe(eur);
  });

  it('accepts a snapshot that no longer lists a minor currency, and one that moved it by exactly 10×', async () => {
    await refreshWith(upstreamAnswer({ EUR: 0.9, JPY: 150, NGN: 15_000 }, nowS() - HOUR_S));
    const body = await rates();
    expect(body.rates).toEqual({ USD: 1, EUR: 0.9, JPY: 150, NGN: 15_000 });
    expect(body.suspect).toEqual([]);
  });

  it('keeps a minor currency that jumped more than 10× at its last good rate and lists it as suspect', async () => {
    await refreshWith(upstreamAnswer({ ...LAST_GOOD, EUR: 0.92, NGN: 15_001, KWD: 0.0307 }, nowS() - HOUR_S));
    const body = await rates();
    expect(body.rates).toMatchObject({ EUR: 0.92, NGN: 1500, KWD: 0.0307 });
    expect(body.suspect).toEqual(['NGN']);
  });

  it('calls the rates stale by the provider\'s publication time, not by when they were fetched', async () => {
    await refreshWith(upstreamAnswer(LAST_GOOD, nowS() - 35 * HOUR_S + 60));
    expect((await rates()).stale).toBe(false);
    await deleteRates();
    await refreshWith(upstreamAnswer(LAST_GOOD, nowS() - 37 * HOUR_S));
    const body = await rates();
    expect(body.stale).toBe(true);
    expect(Date.now() - Date.parse(body.fetched_at)).toBeLessThan(60_000);
  });

  it('shares one upstream call among requests that arrive before the first fill', async () => {
    await deleteRates();
    const upstream = mockUpstream(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return Response.json(upstreamAnswer(LAST_GOOD, nowS() - HOUR_S));
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('GET', '/api/rates', { key: user.key })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(upstream).toHaveBeenCalledOnce();
  });
});

describe('transfers on rates the provider published long ago', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers 503 rates_unavailable once as_of is over 36 hours old', async () => {
    const admin = await createUser();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await deleteRates();
    await refreshWith(upstreamAnswer(LAST_GOOD, nowS() - 37 * HOUR_S));
    const res = await call('POST', '/v1/remit/transfer', {
      key: admin.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000, recipient: { name: 'Jonas Weber', country: 'DE', account: { iban: 'DE89370400440532013000' } } },
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('rates_unavailable');
    await refreshWith(upstreamAnswer(LAST_GOOD, nowS() - HOUR_S));
    expect((await sendTransfer(admin.key)).status).toBe('pending');
  });
});
