// The Hono environment of the app: bindings from `wrangler types` (worker-configuration.d.ts)
// and the values middleware puts on the context.
import type { ServiceContext } from './lib/context';
import type { WriteClaims } from './modules/webhooks/claim-with-writes';

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by requireKey on every keyed route: the workspace, the user and their role. */
    ctx: ServiceContext;
    /** Set on writes by d1Session: the webhook deliveries the request's batches claimed for the queue. */
    writeClaims?: WriteClaims;
  };
};
