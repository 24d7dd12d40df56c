// Gets a fresh clone ready to run: .dev.vars from its example (wrangler reads secrets from it,
// and `wrangler types --check` expects them), and the /docs page's scripts copied from swagger-ui-dist.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const devVars = join(root, '.dev.vars');
if (!existsSync(devVars)) {
  copyFileSync(join(root, '.dev.vars.example'), devVars);
  console.log('Created .dev.vars from .dev.vars.example');
} else {
  // A .dev.vars from an older checkout gets the variables added since, with their example values.
  const has = new Set([...readFileSync(devVars, 'utf8').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
  const missing = readFileSync(join(root, '.dev.vars.example'), 'utf8').split('\n').filter((line) => /^[A-Z_]+=/.test(line) && !has.has(line.split('=')[0]));
  if (missing.length) {
    appendFileSync(devVars, `\n${missing.join('\n')}\n`);
    console.log(`Added to .dev.vars from .dev.vars.example: ${missing.map((line) => line.split('=')[0]).join(', ')}`);
  }
}

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const vendor = join(root, 'public', 'docs', 'vendor');
mkdirSync(vendor, { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) copyFileSync(join(swaggerDir, file), join(vendor, file));
