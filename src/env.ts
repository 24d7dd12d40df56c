// The Hono environment of the app: bindings from `wrangler types` (worker-configuration.d.ts)
// and the values middleware puts on the context.
import type { ServiceContext } from './lib/context';
import type { BatchHook } from './lib/batch-hooks';
import type { RequestDatabases } from './middleware/d1-session';
import type { Upload } from './middleware/upload-body';

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by requireKey on every keyed route: the workspace, the user and their role. */
    ctx: ServiceContext;
    /** Set by d1Session: the request's session on each database it uses. */
    d1: RequestDatabases;
    /** Set by requireKey: the database of the key's workspace, whose session the bookmark describes. */
    homeDatabase?: string;
    /** Set on writes by d1Session: statements that ride along with each of the request's write batches. */
    batchHooks?: BatchHook[];
    /** Set by readUploadBody on the routes that take a file as their body. */
    upload?: Upload;
  };
};
