// §22: each refresh that stores a snapshot keeps it as its UTC day's rates, in every database that
// holds workspaces; the last snapshot of a day is the one kept.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteRates, mockUpstream, upstreamAnswer } from '../helpers/rates';
import { runScheduled } from '../helpers/worker';

const unix = (iso: string) => Date.parse(iso) / 1000;

async function refreshWith(rates: Record<string, number>, publishedAt: string) {
  vi.restoreAllMocks();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  mockUpstream(() => Response.json(upstreamAnswer(rates, unix(publishedAt))));
  await runScheduled();
}

const kept = async (db: D1Database) =>
  (await db.prepare('SELECT currency, day, rate, as_of FROM exchange_rates ORDER BY day, currency').all()).results;

describe('the rates history', () => {
  beforeEach(async () => {
    await deleteRates();
    for (const db of [env.DB, env.DB_WORKSPACES_2]) await db.prepare('DELETE FROM exchange_rates').run();
  });
  afterEach(() => vi.restoreAllMocks());

  it('keeps each day\'s last snapshot, in every workspace database', async () => {
    await refreshWith({ EUR: 0.9, JPY: 150 }, '2026-03-01T08:00:00Z');
    await refreshWith({ EUR: 0.91, JPY: 151 }, '2026-03-01T20:00:00Z');
    await refreshWith({ EUR: 0.92, JPY: 152 }, '2026-03-02T08:00:00Z');
    // The same snapshot again (the provider had nothing new) changes nothing.
    await refreshWith({ EUR: 0.92, JPY: 152 }, '2026-03-02T08:00:00Z');

    const expected = [
      { currency: 'EUR', day: '2026-03-01', rate: 0.91, as_of: '2026-03-01T20:00:00.000Z' },
      { currency: 'JPY', day: '2026-03-01', rate: 151, as_of: '2026-03-01T20:00:00.000Z' },
      { currency: 'USD', day: '2026-03-01', rate: 1, as_of: '2026-03-01T20:00:00.000Z' },
      { currency: 'EUR', day: '2026-03-02', rate: 0.92, as_of: '2026-03-02T08:00:00.000Z' },
      { currency: 'JPY', day: '2026-03-02', rate: 152, as_of: '2026-03-02T08:00:00.000Z' },
      { currency: 'USD', day: '2026-03-02', rate: 1, as_of: '2026-03-02T08:00:00.000Z' },
    ];
    expect(await kept(env.DB)).toEqual(expected);
    expect(await kept(env.DB_WORKSPACES_2)).toEqual(expected);
  });

  it('keeps nothing from a refresh that was refused', async () => {
    await refreshWith({ EUR: 0.9 }, '2026-03-01T08:00:00Z');
    // EUR moving 50 % at once is refused whole: the last good snapshot stays, and so does its day.
    await refreshWith({ EUR: 1.35 }, '2026-03-02T08:00:00Z');
    expect((await kept(env.DB)).map((row) => row.day)).toEqual(['2026-03-01', '2026-03-01']);
  });
});
