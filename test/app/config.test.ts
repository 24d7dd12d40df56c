// A misconfigured deployment fails loudly and safely: every request answers the generic 500
// envelope, and the log names the variable to fix.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { config, ConfigError } from '../../src/config';
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
    ['STRIPE_CHECKOUT_ORIGIN', "https://checkout.stripe.com; script-src *"],
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

describe('reading the configuration', () => {
  const fresh = (overrides: Record<string, unknown>) => ({ ...env, ...overrides }) as unknown as Env;

  it('applies the defaults of what is not set, and trims the API bases of trailing slashes', () => {
    const cfg = config(fresh({ AI_TIMEOUT_MS: undefined, EMAIL_PROVIDER: undefined, STRIPE_API_BASE: 'https://stripe.example/', STRIPE_CHECKOUT_ORIGIN: undefined, PUBLIC_URL: '', CORS_ALLOWED_ORIGINS: ' https://a.example , ,https://b.example' }));
    expect(cfg.STRIPE_CHECKOUT_ORIGIN).toBe('https://checkout.stripe.com');
    expect(cfg.AI_TIMEOUT_MS).toBe(30_000);
    expect(cfg.EMAIL_PROVIDER).toBe('log');
    expect(cfg.STRIPE_API_BASE).toBe('https://stripe.example');
    expect(cfg.PUBLIC_URL).toBeNull();
    expect(cfg.CORS_ALLOWED_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(cfg.WORKSPACE_DATABASES[0]).toBe('DB');
  });

  it('names every bad variable in one error', () => {
    const read = () =>
      config(fresh({ WEBHOOK_SECRET_KEY: undefined, EMAIL_PROVIDER: 'http', EMAIL_API_URL: '', AI_TIMEOUT_MS: '0', PAYMENTS_SANDBOX: 'yes', WORKSPACE_DATABASES: 'DB,db-2' }));
    expect(read).toThrow(ConfigError);
    for (const expected of ['WEBHOOK_SECRET_KEY is required', 'EMAIL_API_URL is required when EMAIL_PROVIDER is http', 'AI_TIMEOUT_MS must be from 1 to 300000', 'PAYMENTS_SANDBOX must be one of true, false', 'WORKSPACE_DATABASES must be a comma list of D1 binding names']) {
      expect(read).toThrow(expected);
    }
  });

  it('refuses a key that is not 32 bytes of base64 and an ADMIN_TOKEN under 16 characters', () => {
    expect(() => config(fresh({ PAYMENTS_ENCRYPTION_KEY: 'c2hvcnQ=' }))).toThrow(/PAYMENTS_ENCRYPTION_KEY must be 32 random bytes/);
    expect(() => config(fresh({ ADMIN_TOKEN: 'short' }))).toThrow(/ADMIN_TOKEN must be at least 16 characters/);
    expect(config(fresh({ ADMIN_TOKEN: undefined })).ADMIN_TOKEN).toBeUndefined();
  });
});
