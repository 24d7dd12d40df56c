// Writes the OpenAPI document the worker serves at /openapi.json to a file, for linting and for
// generating clients. The document needs no bindings, so the app runs here under Node.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { app } from '../src/app';

const out = process.argv[2] ?? 'dist/openapi.json';
const response = await app.request('http://localhost:8787/openapi.json', {}, { APP_VERSION: 'export' } as unknown as Env);
if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(await response.json(), null, 2)}\n`);
console.log(`Wrote ${out}`);
