// The worker's configuration (wrangler.toml [vars] and secrets), checked once per environment
// object: a typo in a deployed var (a fee of "5O", a URL without a scheme) fails every request
// with one clear log line naming the variable, instead of turning into NaN deep in money math.
import { BINDING_NAME, d1Named, rootEnv } from './lib/database-env';
import { VarsReader, withoutTrailingSlashes } from './lib/vars-reader';

export type Config = {
  APP_VERSION: string;
  RATES_URL: string;
  RATES_TIMEOUT_MS: number;
  TRANSFER_FEE_BPS: number;
  TRANSFER_FIXED_FEE_USD_CENTS: number;
  ADMIN_TOKEN: string | undefined;
  /** Exact origins (scheme://host[:port]) whose pages may call the API with a key. */
  CORS_ALLOWED_ORIGINS: string[];
  /** Host names or addresses that may receive webhooks despite the URL rules (and over http): local receivers in development and tests. Empty in production. */
  WEBHOOK_ALLOWED_HOSTS: string[];
  /** The AES-GCM key webhook signing secrets are stored under. */
  WEBHOOK_SECRET_KEY: string;
  /** The hosted invoice page (§10): links are `<PUBLIC_URL or the request's origin>/i/<token>`, each token an HMAC under INVOICE_LINK_SECRET. */
  PUBLIC_URL: string | null;
  INVOICE_LINK_SECRET: string;
  /** Outgoing email: `log` records and logs it (nothing leaves the machine); `http` posts JSON to EMAIL_API_URL with EMAIL_API_KEY as a bearer token. */
  EMAIL_PROVIDER: 'log' | 'http';
  EMAIL_API_URL: string;
  EMAIL_API_KEY: string;
  EMAIL_FROM: string;
  /** §21: the domain of workspaces' inbound addresses (`<token>@INBOUND_EMAIL_DOMAIN`), routed to this worker's email handler. */
  INBOUND_EMAIL_DOMAIN: string;
  /** Getting paid online (§16): the sandbox provider exists only where this is true (never in production). */
  PAYMENTS_SANDBOX: boolean;
  /** Stripe's API (tests point it at a fake). */
  STRIPE_API_BASE: string;
  /** Where Stripe's Checkout pages live: the hosted page's CSP `form-action` lets the pay form go there (a server answering for Stripe in tests sets its own). */
  STRIPE_CHECKOUT_ORIGIN: string;
  /** Provider secrets are sealed under this key, needed once a workspace connects one. */
  PAYMENTS_ENCRYPTION_KEY: string | undefined;
  /** Transfers abroad (§6): Wise's API, and the public key its webhooks are signed with (PEM, SPKI). */
  WISE_API_BASE: string;
  WISE_WEBHOOK_PUBLIC_KEY: string;
  /** The co-pilot's provider (§6): local needs nothing; openai speaks chat-completions at AI_BASE_URL (with AI_API_KEY when the server wants one); workers-ai uses the AI binding. */
  AI_PROVIDER: 'local' | 'openai' | 'workers-ai';
  AI_BASE_URL: string;
  AI_API_KEY: string;
  AI_MODEL: string;
  AI_TIMEOUT_MS: number;
  /** The D1 bindings that hold workspaces' records, DB first (src/lib/databases.ts). */
  WORKSPACE_DATABASES: string[];
};

const ORIGIN = /^https?:\/\/[^/\s,]+$/;
// An origin that goes into a CSP source list as it is: a host name or address and a port, nothing a
// header could read as another source or directive.
const CSP_ORIGIN = /^https?:\/\/([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:\d{1,5})?$/;
// A host name: labels of letters, digits and hyphens, at least two of them.
const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The configuration the variables give; what is wrong with them is in `vars.problems`. */
function readConfig(vars: VarsReader): Config {
  const cfg: Config = {
    APP_VERSION: vars.atLeast('APP_VERSION', 1, 'is required') ?? '',
    RATES_URL: vars.url('RATES_URL'),
    RATES_TIMEOUT_MS: vars.integer('RATES_TIMEOUT_MS', 1, 60_000),
    TRANSFER_FEE_BPS: vars.integer('TRANSFER_FEE_BPS', 0, 10_000),
    TRANSFER_FIXED_FEE_USD_CENTS: vars.integer('TRANSFER_FIXED_FEE_USD_CENTS', 0, 1_000_000),
    ADMIN_TOKEN: vars.atLeast('ADMIN_TOKEN', 16, 'must be at least 16 characters', { optional: true }),
    CORS_ALLOWED_ORIGINS: vars.list('CORS_ALLOWED_ORIGINS', '', { pattern: ORIGIN, message: 'must be a comma list of origins such as https://app.example.com' }),
    WEBHOOK_ALLOWED_HOSTS: vars.list('WEBHOOK_ALLOWED_HOSTS', '').map((host) => host.toLowerCase()),
    WEBHOOK_SECRET_KEY: vars.key32('WEBHOOK_SECRET_KEY') ?? '',
    PUBLIC_URL: withoutTrailingSlashes(vars.url('PUBLIC_URL', { fallback: '', emptyAllowed: true })) || null,
    INVOICE_LINK_SECRET: vars.atLeast('INVOICE_LINK_SECRET', 32, 'must be at least 32 characters (openssl rand -base64 32)') ?? '',
    EMAIL_PROVIDER: vars.choice('EMAIL_PROVIDER', ['log', 'http'], 'log'),
    EMAIL_API_URL: vars.url('EMAIL_API_URL', { fallback: '', emptyAllowed: true }),
    EMAIL_API_KEY: vars.text('EMAIL_API_KEY', { fallback: '' }) ?? '',
    EMAIL_FROM: vars.atLeast('EMAIL_FROM', 3, 'must be at least 3 characters', { fallback: 'Workspace <invoices@workspace.example>' }) ?? '',
    INBOUND_EMAIL_DOMAIN: (vars.text('INBOUND_EMAIL_DOMAIN', { fallback: 'inbound.workspace.example' }) ?? '').toLowerCase(),
    PAYMENTS_SANDBOX: vars.choice('PAYMENTS_SANDBOX', ['true', 'false'], 'false') === 'true',
    STRIPE_API_BASE: withoutTrailingSlashes(vars.url('STRIPE_API_BASE', { fallback: 'https://api.stripe.com' })),
    STRIPE_CHECKOUT_ORIGIN: withoutTrailingSlashes(vars.text('STRIPE_CHECKOUT_ORIGIN', { fallback: 'https://checkout.stripe.com' }) ?? ''),
    PAYMENTS_ENCRYPTION_KEY: vars.key32('PAYMENTS_ENCRYPTION_KEY', { optional: true }),
    WISE_API_BASE: withoutTrailingSlashes(vars.url('WISE_API_BASE', { fallback: 'https://api.transferwise.com' })),
    WISE_WEBHOOK_PUBLIC_KEY: vars.text('WISE_WEBHOOK_PUBLIC_KEY', { fallback: '' }) ?? '',
    AI_PROVIDER: vars.choice('AI_PROVIDER', ['local', 'openai', 'workers-ai'], 'local'),
    AI_BASE_URL: withoutTrailingSlashes(vars.url('AI_BASE_URL', { fallback: 'http://127.0.0.1:11434/v1' })),
    AI_API_KEY: vars.text('AI_API_KEY', { fallback: '' }) ?? '',
    AI_MODEL: vars.text('AI_MODEL', { fallback: '' }) ?? '',
    AI_TIMEOUT_MS: vars.integer('AI_TIMEOUT_MS', 1, 300_000, 30_000),
    // DB is always one of them: it holds the directory and every personal workspace.
    WORKSPACE_DATABASES: [
      ...new Set(['DB', ...vars.list('WORKSPACE_DATABASES', 'DB', { pattern: BINDING_NAME, message: 'must be a comma list of D1 binding names such as DB,DB_WORKSPACES_2' })]),
    ],
  };
  if (cfg.EMAIL_PROVIDER === 'http' && !cfg.EMAIL_API_URL) vars.problem('EMAIL_API_URL', 'is required when EMAIL_PROVIDER is http');
  if (!DOMAIN.test(cfg.INBOUND_EMAIL_DOMAIN)) vars.problem('INBOUND_EMAIL_DOMAIN', 'must be a domain name such as inbound.example.com');
  if (!CSP_ORIGIN.test(cfg.STRIPE_CHECKOUT_ORIGIN)) vars.problem('STRIPE_CHECKOUT_ORIGIN', 'must be an origin such as https://checkout.stripe.com');
  return cfg;
}

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
  const vars = new VarsReader(env as unknown as Record<string, unknown>);
  cfg = readConfig(vars);
  if (vars.problems.length) {
    throw new ConfigError(`Invalid worker configuration: ${vars.problems.join('; ')}. Fix it in wrangler.toml [vars] or with wrangler secret put.`);
  }
  // A name that is not a D1 binding of this worker would fail every request for its workspaces. (DB
  // is the directory, bound by wrangler.toml itself; tools that serve only the document run without it.)
  const missing = cfg.WORKSPACE_DATABASES.filter((name) => name !== 'DB' && !d1Named(env, name));
  if (missing.length) {
    throw new ConfigError(`Invalid worker configuration: WORKSPACE_DATABASES names ${missing.join(', ')}, which is not a D1 binding. Fix it in wrangler.toml.`);
  }
  checked.set(env, cfg);
  return cfg;
}
