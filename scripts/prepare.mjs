// Gets a fresh clone ready to run: .dev.vars from its example (wrangler reads secrets from it,
// and `wrangler types --check` expects them), and the /docs page's scripts copied from swagger-ui-dist.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(join(root, '.dev.vars'))) {
  copyFileSync(join(root, '.dev.vars.example'), join(root, '.dev.vars'));
  console.log('Created .dev.vars from .dev.vars.example');
}

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const vendor = join(root, 'public', 'docs', 'vendor');
mkdirSync(vendor, { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) copyFileSync(join(swaggerDir, file), join(vendor, file));
