// The worker's configuration (wrangler.toml [vars] and secrets), checked once per environment
// object: a typo in a deployed var (a fee of "5O", a URL without a scheme) fails every request
// with one clear log line naming the variable, instead of turning into NaN deep in money math.
import { z } from 'zod';
import { BINDING_NAME, d1Named, rootEnv } from './lib/database-env';

const integerText = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

const ConfigSchema = z.object({
  APP_VERSION: z.string().min(1),
  RATES_URL: z.url({ protocol: /^https?$/ }),
  RATES_TIMEOUT_MS: integerText(1, 60_000),
  TRANSFER_FEE_BPS: integerText(0, 10_000),
  TRANSFER_FIXED_FEE_USD_CENTS: integerText(0, 1_000_000),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // A comma list of exact origins (scheme://host[:port]) whose pages may call the API with a key.
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s,]+$/, 'must be a comma list of origins such as https://app.example.com'))),
  // Comma list of exact host names or addresses that may receive webhooks despite the URL rules
  // (and over http): local receivers in development and tests. Empty in production.
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean)),
  // The AES-GCM key webhook signing secrets are stored under: 32 bytes, standard base64.
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((text) => {
      try {
        return atob(text).length === 32;
      } catch {
        return false;
      }
    }, 'must be 32 random bytes in standard base64 (openssl rand -base64 32)'),
  // The hosted invoice page (§10): links are `<PUBLIC_URL or the request's origin>/i/<token>`, each
  // token an HMAC under INVOICE_LINK_SECRET.
  PUBLIC_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default('').transform((url) => url.replace(/\/+$/, '') || null),
  INVOICE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters (openssl rand -base64 32)'),
  // Outgoing email: `log` records and logs it (nothing leaves the machine); `http` posts JSON to
  // EMAIL_API_URL with EMAIL_API_KEY as a bearer token.
  EMAIL_PROVIDER: z.enum(['log', 'http']).default('log'),
  EMAIL_API_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  EMAIL_API_KEY: z.string().default(''),
  EMAIL_FROM: z.string().min(3).default('Workspace <invoices@workspace.example>'),
  // Getting paid online (§16): the sandbox provider exists only where PAYMENTS_SANDBOX is "true"
  // (never in production); Stripe's API is at STRIPE_API_BASE (tests point it at a fake); provider
  // secrets are sealed under PAYMENTS_ENCRYPTION_KEY, needed once a workspace connects one.
  PAYMENTS_SANDBOX: z.enum(['true', 'false']).default('false').transform((flag) => flag === 'true'),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.stripe.com').transform((url) => url.replace(/\/+$/, '')),
  PAYMENTS_ENCRYPTION_KEY: z
    .string()
    .refine((text) => {
      try {
        return atob(text).length === 32;
      } catch {
        return false;
      }
    }, 'must be 32 random bytes in standard base64 (openssl rand -base64 32)')
    .optional(),
  // Transfers abroad (§6): Wise's API, and the public key its webhooks are signed with (PEM, SPKI).
  WISE_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.transferwise.com').transform((url) => url.replace(/\/+$/, '')),
  WISE_WEBHOOK_PUBLIC_KEY: z.string().default(''),
  // The co-pilot's provider (§6): local needs nothing; openai speaks chat-completions at AI_BASE_URL
  // (with AI_API_KEY when the server wants one); workers-ai uses the AI binding.
  AI_PROVIDER: z.enum(['local', 'openai', 'workers-ai']).default('local'),
  AI_BASE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:11434/v1').transform((url) => url.replace(/\/+$/, '')),
  AI_API_KEY: z.string().default(''),
  AI_MODEL: z.string().default(''),
  AI_TIMEOUT_MS: integerText(1, 300_000).default(30_000),
  // The D1 bindings that hold workspaces' records, DB first (src/lib/databases.ts). DB is always one
  // of them: it holds the directory and every personal workspace, so the list is DB plus the others.
  WORKSPACE_DATABASES: z
    .string()
    .default('DB')
    .transform((list) => [...new Set(['DB', ...list.split(',').map((name) => name.trim()).filter(Boolean)])])
    .pipe(z.array(z.string().regex(BINDING_NAME, 'must be a comma list of D1 binding names such as DB,DB_WORKSPACES_2'))),
}).refine((cfg) => cfg.EMAIL_PROVIDER !== 'http' || cfg.EMAIL_API_URL, { path: ['EMAIL_API_URL'], message: 'is required when EMAIL_PROVIDER is http' });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const checked = new WeakMap<object, Config>();

/** The checked configuration of `env`; throws ConfigError naming every bad variable. */
export function config(given: Env): Config {
  // An env derived for another database (lib/database-env.ts) has the same configuration as its root.
  const env = rootEnv(given);
  let cfg = checked.get(env);
  if (cfg) return cfg;
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid worker configuration: ${problems}. Fix it in wrangler.toml [vars] or with wrangler secret put.`);
  }
  cfg = result.data;
  // A name that is not a D1 binding of this worker would fail every request for its workspaces. (DB
  // is the directory, bound by wrangler.toml itself; tools that serve only the document run without it.)
  const missing = cfg.WORKSPACE_DATABASES.filter((name) => name !== 'DB' && !d1Named(env, name));
  if (missing.length) {
    throw new ConfigError(`Invalid worker configuration: WORKSPACE_DATABASES names ${missing.join(', ')}, which is not a D1 binding. Fix it in wrangler.toml.`);
  }
  checked.set(env, cfg);
  return cfg;
}
