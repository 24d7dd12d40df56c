// Writes the OpenAPI document the worker serves at /openapi.json to a file, for linting and for
// generating clients. The document needs no bindings, so the app runs here under Node, with the
// [vars] of wrangler.toml and the development secrets of .dev.vars.example (the worker checks its
// configuration on every request).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { app } from '../src/app';

/** `KEY = "value"` lines of the top-level [vars] table (all our vars are strings). */
function wranglerVars(): Record<string, string> {
  const toml = readFileSync(join(import.meta.dirname, '..', 'wrangler.toml'), 'utf8');
  const section = toml.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? '';
  return Object.fromEntries([...section.matchAll(/^([A-Z_]+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
}

/** The development secrets of .dev.vars.example (the configuration check wants every one present). */
function exampleSecrets(): Record<string, string> {
  const text = readFileSync(join(import.meta.dirname, '..', '.dev.vars.example'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()]));
}

const out = process.argv[2] ?? 'dist/openapi.json';
const response = await app.request('http://localhost:8787/openapi.json', {}, { ...exampleSecrets(), ...wranglerVars() } as unknown as Env);
if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(await response.json(), null, 2)}\n`);
console.log(`Wrote ${out}`);
