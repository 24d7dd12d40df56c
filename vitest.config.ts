import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { unstable_readConfig } from 'wrangler';
import { buildRenderer } from './scripts/build-renderer.mjs';
import { EndOfRunWatchdog } from './scripts/end-of-run-watchdog.mjs';
import { checkZip, ZIP_CHECK_HOST } from './scripts/zip-check.mjs';

// The contract fuzzer's seed: random unless FUZZ_SEED replays a run; printed by the fuzz tests.
// FUZZ_RUNS: random cases per operation, after one of each kind (test/helpers/fuzz/cases.ts).
const fuzzSeed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const fuzzRuns = Number(process.env.FUZZ_RUNS ?? 15);

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  const renderer = unstable_readConfig({ config: path.join(import.meta.dirname, 'src/renderer/wrangler.toml') });
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        remoteBindings: false,
        miniflare: {
          // Test-only: the migrations for the setup file (applied to both databases), a known admin token, a rates upstream that
          // does not exist (tests mock fetch) with a short timeout, and the flag that
          // lets tests call the worker's queue and scheduled handlers through `exports.default`.
          bindings: {
            TEST_MIGRATIONS: migrations,
            ADMIN_TOKEN: 'test-admin-token',
            RATES_URL: 'https://rates.test/v6/latest/USD',
            RATES_TIMEOUT_MS: '200',
            WEBHOOK_SECRET_KEY: 'dGVzdC1vbmx5LXdlYmhvb2sta2V5LTMyLWJ5dGVzISE=',
            INVOICE_LINK_SECRET: 'test-only-invoice-link-secret-0123456789abcdef',
            PAYMENTS_ENCRYPTION_KEY: 'dGVzdC1vbmx5LXBheW1lbnRzLWtleS0zMi1ieXRlcyE=',
            // Stripe's API is a fake in tests (test/payments/fake-stripe.ts mocks fetch to it), and so
            // are its Checkout pages, which the hosted page's CSP must then let the pay form reach.
            STRIPE_API_BASE: 'https://stripe.test',
            STRIPE_CHECKOUT_ORIGIN: 'https://checkout.stripe.test',
            // Wise's API and a chat-completions server are fakes too (test/transfers/fake-wise.ts,
            // test/suggestions/fake-chat.ts).
            WISE_API_BASE: 'https://wise.test',
            AI_BASE_URL: 'https://chat.test/v1',
            // Both databases hold workspaces, so a workspace made through POST /api/workspaces lands
            // on either (by its id's hash): the suite runs the routing layer, not just DB.
            WORKSPACE_DATABASES: 'DB,DB_WORKSPACES_2',
          },
          compatibilityFlags: ['service_binding_extra_handlers'],
          // The renderer worker, which the RENDERER binding of wrangler.toml names: every PDF a test asks
          // for goes through the service binding, as in production.
          workers: [{ name: renderer.name, modules: true, scriptPath: await buildRenderer(import.meta.dirname), compatibilityDate: renderer.compatibility_date }],
          // Nothing in a test reaches the internet: an unmocked outbound fetch gets this answer. But for one host, served
          // here in Node: `unzip -t` on a ZIP the test sends it (scripts/zip-check.mjs).
          outboundService: (request: Request) =>
            new URL(request.url).host === ZIP_CHECK_HOST ? checkZip(request) : new Response('Outbound network is disabled in tests.', { status: 503 }),
        },
      }),
    ],
    test: {
      // One runtime per test worker, reused from file to file: setup.ts gives each file empty storage.
      // One test worker: with two, 4 of 9 runs here hung at the last file of each worker, their
      // runtimes disconnected; with one, every run finished (70–90 s).
      isolate: false,
      maxWorkers: 1,
      setupFiles: ['./test/helpers/setup.ts'],
      // Dependencies pre-bundled, each into one module: otherwise every module of a dependency is a
      // request from the test runtime to vitest's module server, and hono, zod, drizzle and date-fns
      // are hundreds of them (the run's start took 21 s, now 14). Every entry point the code and the
      // tests import is listed, so that entry points of one package share its chunks (one
      // HTTPException class, one JSX context).
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: [
              'hono', 'hono/cors', 'hono/factory', 'hono/html', 'hono/http-exception', 'hono/jsx', 'hono/jsx/jsx-runtime', 'hono/jsx/jsx-dev-runtime',
              'hono/request', 'hono/router/trie-router', 'hono/secure-headers', 'hono/utils/http-status', '@hono/zod-openapi', 'zod',
              'drizzle-orm', 'drizzle-orm/batch', 'drizzle-orm/d1', 'drizzle-orm/sqlite-core',
              'date-fns', 'ipaddr.js', 'standardwebhooks', 'fast-check', '@cfworker/json-schema',
            ],
          },
        },
      },
      include: ['test/**/*.test.ts'],
      provide: { fuzzSeed, fuzzRuns },
      // Many tests provoke failures on purpose (a rates upstream that is down, a webhook receiver
      // that answers 500) and the worker logs each one: those lines are shown for a failing test,
      // where they help, and not for the hundreds that pass, so the output is the summary.
      silent: 'passed-only',
      reporters: ['default', new EndOfRunWatchdog()],
      // Most tests take well under a second alone; beside another test run on this 2-core machine,
      // some took 15-20 s, so the default limit leaves room for that (the slowest set their own).
      testTimeout: 60_000,
      hookTimeout: 30_000,
    },
  };
});
