// The Hono environment of the app: bindings from `wrangler types` (worker-configuration.d.ts)
// and the values middleware puts on the context.
export type Caller = { userId: string; keyId: string };

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    caller: Caller;
  };
};
