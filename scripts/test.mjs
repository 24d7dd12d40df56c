// `npm test`: every check, with the ones that do not depend on each other run side by side. The
// Workers test suite keeps one core busy (it runs in one test worker; see vitest.config.ts), so the
// type-check, the OpenAPI lint and the e-invoice validation (our own EN 16931 rules, and the official
// artefacts where installed) run beside it on the other, their output held back and printed whole when
// they end. The end-to-end run starts its own worker and browser, so it comes last. Every check runs
// even when one before it failed, and the run ends with one line per check and `N passed, M failed`.
import { spawn } from 'node:child_process';

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

/** Each check's name, outcome and time, in the order they ended, for the closing summary. */
const results = [];

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
      results.push({ script, passed: code === 0, seconds });
      resolve(code === 0);
    });
  });
}

// One after the other, each whatever the one before it did: a failed e-invoice check must not hide the e2e.
const inOrder = async (...scripts) => {
  for (const script of scripts) await run(script, { quiet: true });
};

const started = performance.now();
// Nothing else can run without the local setup (.dev.vars, the renderer bundle).
if (await run('prepare:local')) {
  await Promise.all([run('test:workers'), inOrder('typecheck', 'lint:openapi', 'test:einvoice', 'test:e2e')]);
}
const failed = results.filter((result) => !result.passed).length;
console.log(`\nChecks, in ${((performance.now() - started) / 1000).toFixed(1)} s:`);
for (const result of results) console.log(`  ${result.script.padEnd(14)} ${result.passed ? 'passed' : 'FAILED'}  ${result.seconds} s`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
