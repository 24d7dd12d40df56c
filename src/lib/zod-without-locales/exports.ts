// Everything zod 4's `zod` entry exports (node_modules/zod/v4/classic/external.js), but `locales`,
// `compile` and `fromJSONSchema` (see index.ts):
// the same modules, re-exported from the same files, so `z` behaves as zod's own.
export * as core from './core';
export * from '../../../node_modules/zod/v4/classic/schemas.js';
export * from '../../../node_modules/zod/v4/classic/checks.js';
export * from '../../../node_modules/zod/v4/classic/errors.js';
export * from '../../../node_modules/zod/v4/classic/parse.js';
export * from '../../../node_modules/zod/v4/classic/compat.js';
export {
  globalRegistry, registry, config, memoizer, $output, $input, $brand, clone, regexes, treeifyError, prettifyError, formatError, flattenError,
  TimePrecision, util, NEVER, toZod, getDiscriminatedOption,
} from './core';
export { toJSONSchema } from '../../../node_modules/zod/v4/core/json-schema-processors.js';
export { deepPartial } from '../../../node_modules/zod/v4/classic/deep-partial.js';
export { input, output } from '../../../node_modules/zod/v4/classic/in-out.js';
export { ZodISODateTime, ZodISODate, ZodISOTime, ZodISODuration } from '../../../node_modules/zod/v4/classic/iso.js';
export * as iso from '../../../node_modules/zod/v4/classic/iso.js';
export * as coerce from '../../../node_modules/zod/v4/classic/coerce.js';
