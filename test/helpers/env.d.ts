declare namespace Cloudflare {
  interface Env {
    // Test-only bindings, defined in vitest.config.ts.
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}

declare namespace Cloudflare {
  interface GlobalProps {
    // Gives `exports` from cloudflare:workers the worker's real types in tests.
    mainModule: typeof import('../../src/index');
  }
}
