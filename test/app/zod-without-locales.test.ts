// The deployed bundle's `zod` (wrangler.toml aliases it to src/lib/zod-without-locales): zod's own
// exports but its translations, its compiler and fromJSONSchema, so nothing that reads `z` finds a
// member missing after an upgrade.
import { describe, expect, it } from 'vitest';
import * as zod from '../../node_modules/zod/v4/classic/external.js';
import * as zodCompile from '../../node_modules/zod/v4/core/compile.js';
import * as zodCore from '../../node_modules/zod/v4/core/index.js';
import * as lean from '../../src/lib/zod-without-locales';

const names = (namespace: object) => Object.keys(namespace).sort();
const leftOut = new Set(['locales', 'fromJSONSchema', ...Object.keys(zodCompile)]);

describe('zod without locales', () => {
  it('exports what zod exports, but locales, the compiler and fromJSONSchema', () => {
    expect(names(lean.z)).toEqual(names(zod).filter((name) => !leftOut.has(name)));
    expect(names(lean.z.core)).toEqual(names(zodCore).filter((name) => !leftOut.has(name)));
    expect(lean.default).toBe(lean.z);
  });

  it('builds the same schemas, with zod\'s English messages', () => {
    expect(lean.z.ZodString).toBe(zod.ZodString);
    const result = lean.z.object({ amount: lean.z.number().int() }).safeParse({ amount: 1.5 });
    expect(result.error?.issues[0]?.message).toBe(zod.object({ amount: zod.number().int() }).safeParse({ amount: 1.5 }).error?.issues[0]?.message);
    expect(result.error?.issues[0]?.message).toMatch(/^Invalid input: expected int/);
  });
});
