import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteRates, mockUpstream, RATES_KEY, upstreamAnswer } from '../helpers/rates';
import { runScheduled } from '../helpers/worker';

const runCron = () => runScheduled();

const cached = async () => env.RATES_KV.get<{ rates: Record<string, number>; source: string; as_of: string }>(RATES_KEY, 'json');

describe('the rates cron', () => {
  beforeEach(async () => {
    await deleteRates();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('stores a good answer from the upstream named by RATES_URL', async () => {
    const upstream = mockUpstream(() => Response.json(upstreamAnswer({ EUR: 0.9213, JPY: 151.37 }, 1_795_000_000)));
    await runCron();
    expect(upstream).toHaveBeenCalledOnce();
    expect(new Request(upstream.mock.calls[0]![0] as RequestInfo).url).toBe(env.RATES_URL);
    expect(await cached()).toMatchObject({ rates: { USD: 1, EUR: 0.9213, JPY: 151.37 }, source: 'rates.test', as_of: '2026-11-18T11:06:40.000Z' });
  });

  const failures: [string, () => Promise<Response> | Response][] = [
    ['is down', () => Promise.reject(new TypeError('connection refused'))],
    ['answers 500', () => new Response('oops', { status: 500 })],
    ['answers HTML', () => new Response('<html>maintenance</html>', { status: 200 })],
    ['answers another base', () => Response.json({ ...upstreamAnswer({ EUR: 1 }), base_code: 'EUR' })],
    ['answers negative rates', () => Response.json(upstreamAnswer({ EUR: -0.9 }))],
    ['answers an error result', () => Response.json({ result: 'error', 'error-type': 'quota-reached' })],
    ['is slow', () => new Promise<Response>(() => {})],
  ];

  it.each(failures)('keeps the last good rates when the upstream %s', async (_, respond) => {
    mockUpstream(() => Response.json(upstreamAnswer({ EUR: 0.9 })));
    await runCron();
    vi.restoreAllMocks();
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockUpstream((request) =>
      // A slow upstream only ends when the refresh gives up on it (RATES_TIMEOUT_MS is 200 ms in tests).
      new Promise<Response>((resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
        Promise.resolve(respond()).then(resolve, reject);
      }),
    );
    await runCron();
    expect((await cached())?.rates).toEqual({ USD: 1, EUR: 0.9 });
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('keeping the last good snapshot'));
  });
});
