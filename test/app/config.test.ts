// A misconfigured deployment fails loudly and safely: every request answers the generic 500
// envelope, and the log names the variable to fix.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import worker from '../../src/index';

async function fetchWith(overrides: Partial<Env>, path = '/health') {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`https://workspace.test${path}`), { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe('configuration', () => {
  it('serves with the checked-in vars', async () => {
    expect((await fetchWith({})).status).toBe(200);
  });

  it.each([
    ['TRANSFER_FEE_BPS', '5O'],
    ['RATES_URL', 'open.er-api.com/v6/latest/USD'],
    ['RATES_TIMEOUT_MS', '-1'],
  ])('answers 500 without detail and logs the name of a bad %s', async (name, value) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await fetchWith({ [name]: value } as Partial<Env>);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).not.toContain(name);
    expect(logged.mock.calls.flat().join(' ')).toContain(name);
    logged.mockRestore();
  });
});
