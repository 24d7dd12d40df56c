// `npm test`: every check, with the ones that do not depend on each other run side by side. The
// Workers test suite keeps one core busy (it runs in one test worker; see vitest.config.ts), so the
// type-check, the OpenAPI lint and the e-invoice validation (Java, ../shared/einvoice) run beside it
// on the other, their output held back and printed whole when they end. The end-to-end run starts
// its own worker and browser, so it comes last.
import { spawn } from 'node:child_process';

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

/** Runs an npm script; `quiet` holds its output until it ends (so two stages' lines do not mix). */
function run(script, { quiet = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { env, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (quiet) process.stdout.write(`\n── ${script} ──\n${output}`);
      console.log(`── ${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
      resolve(code === 0);
    });
  });
}

const inOrder = async (...scripts) => {
  for (const script of scripts) if (!(await run(script, { quiet: true }))) return false;
  return true;
};

const started = performance.now();
let passed = await run('prepare:local');
if (passed) {
  const results = await Promise.all([run('test:workers'), inOrder('typecheck', 'lint:openapi', 'test:einvoice', 'test:e2e')]);
  passed = results.every(Boolean);
}
console.log(`\n${passed ? 'All checks passed' : 'Some checks FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
process.exit(passed ? 0 : 1);
