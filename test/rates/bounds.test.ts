// §5, §7: rates outside 10^-6 .. 10^9 units per USD are refused whole; a major currency is also
// held to the last good snapshot at least 24 hours older, so small steps cannot walk it away; the
// upstream's answer is read up to 1 MB, then refused. Each time the last good snapshot stays.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { deleteRates, mockUpstream, RATES_KEY, upstreamAnswer } from '../helpers/rates';
import { runScheduled } from '../helpers/worker';

const HOUR_S = 3600;
const nowS = () => Math.floor(Date.now() / 1000);
const LAST_GOOD = { EUR: 0.92, JPY: 150, NGN: 1500 };

let user: TestUser;
const rates = async () => (await call('GET', '/api/rates', { key: user.key })).body;

async function refreshWith(respond: () => Response) {
  mockUpstream(respond);
  await runScheduled();
  vi.restoreAllMocks();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'log').mockImplementation(() => {});
}

describe('rates the cron refuses', () => {
  beforeEach(async () => {
    user ??= await createUser();
    await deleteRates();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['a tiny rate for a known currency', { ...LAST_GOOD, NGN: 1e-7 }],
    ['a huge rate for a known currency', { ...LAST_GOOD, NGN: 2e9 }],
    ['a tiny rate for a currency new to the snapshot', { ...LAST_GOOD, XAF: 9e-7 }],
  ])('refuses %s, also as the very first snapshot', async (_, answer) => {
    await refreshWith(() => Response.json(upstreamAnswer(answer, nowS() - HOUR_S)));
    expect(await env.RATES_KV.get(RATES_KEY)).toBeNull();
    await refreshWith(() => Response.json(upstreamAnswer(LAST_GOOD, nowS() - 2 * HOUR_S)));
    const before = await rates();
    await refreshWith(() => Response.json(upstreamAnswer(answer, nowS() - HOUR_S)));
    expect(await rates()).toEqual(before);
  });

  it('accepts rates at the edges of the range', async () => {
    await refreshWith(() => Response.json(upstreamAnswer({ ...LAST_GOOD, XAF: 1e-6, VEF: 1e9 }, nowS() - HOUR_S)));
    expect((await rates()).rates).toMatchObject({ XAF: 1e-6, VEF: 1e9 });
  });

  it('refuses a major currency walked away in small steps, against the snapshot at least 24 hours older', async () => {
    await refreshWith(() => Response.json(upstreamAnswer(LAST_GOOD, nowS() - 30 * HOUR_S)));
    await refreshWith(() => Response.json(upstreamAnswer(LAST_GOOD, nowS() - 7 * HOUR_S)));
    // Six steps of +24 % each, an hour apart: each within 25 % of the one before.
    let eur = LAST_GOOD.EUR;
    for (let step = 1; step <= 6; step++) {
      eur *= 1.24;
      await refreshWith(() => Response.json(upstreamAnswer({ ...LAST_GOOD, EUR: eur }, nowS() - (7 - step) * HOUR_S)));
    }
    const served = await rates();
    expect(served.stale).toBe(false);
    // The first step is within 25 % of the day-old 0.92; no later one is.
    expect(served.rates.EUR).toBeCloseTo(0.92 * 1.24, 10);
  });

  it('accepts a major currency that moved less than 25 % over the day', async () => {
    await refreshWith(() => Response.json(upstreamAnswer(LAST_GOOD, nowS() - 30 * HOUR_S)));
    for (const [eur, hoursAgo] of [[0.97, 20], [1.02, 10], [1.1, 1]] as const) {
      await refreshWith(() => Response.json(upstreamAnswer({ ...LAST_GOOD, EUR: eur }, nowS() - hoursAgo * HOUR_S)));
    }
    expect((await rates()).rates.EUR).toBe(1.1);
  });

  it('reads the upstream\'s answer up to 1 MB, then refuses it', async () => {
    await refreshWith(() => Response.json(upstreamAnswer(LAST_GOOD, nowS() - 2 * HOUR_S)));
    const before = await rates();
    // Well-formed, and past the limit only by its padding.
    const big = () => new Response(JSON.stringify({ ...upstreamAnswer({ ...LAST_GOOD, EUR: 0.93 }, nowS() - HOUR_S), padding: 'x'.repeat(1024 * 1024) }), {
      headers: { 'Content-Type': 'application/json' },
    });
    await refreshWith(big);
    expect(await rates()).toEqual(before);
    // The same answer without a length header, streamed: refused all the same.
    const streamed = () => {
      const text = new TextEncoder().encode(JSON.stringify({ ...upstreamAnswer({ ...LAST_GOOD, EUR: 0.93 }, nowS() - HOUR_S), padding: 'x'.repeat(1024 * 1024) }));
      return new Response(new ReadableStream({ start(c) { for (let i = 0; i < text.length; i += 65_536) c.enqueue(text.slice(i, i + 65_536)); c.close(); } }));
    };
    await refreshWith(streamed);
    expect(await rates()).toEqual(before);
    await refreshWith(() => Response.json({ ...upstreamAnswer({ ...LAST_GOOD, EUR: 0.93 }, nowS() - HOUR_S), padding: 'x'.repeat(900 * 1024) }));
    expect((await rates()).rates.EUR).toBe(0.93);
  });
});
