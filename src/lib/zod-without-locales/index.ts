// `zod` for the deployed bundle (wrangler.toml aliases it here): zod's `z` without `z.locales`.
// The `z` namespace exports zod's messages in every language, and @hono/zod-openapi passes `z`
// around as a value, so the bundler keeps them all (about 260 KB minified) and every cold start
// parses them. Nothing here uses them: zod's schemas module sets English as the default itself,
// and the messages a client reads are our own (lib/validation.ts). For the same reason two more parts
// are left out that nothing here calls: `z.compile` (zod's ahead-of-time parser generator, 30 KB) and
// `z.fromJSONSchema` (12 KB); the schemas' own `toJSONSchema` stays (the model's answer schema uses it).
import * as z from './exports';

export * from './exports';
export { z, z as default };
