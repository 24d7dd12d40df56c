// For the tests (vitest.config.ts): the worker's ZIPs checked by the standard tool. A test POSTs a ZIP's bytes to
// https://unzip.test/ (an outbound request, which the test pool hands to this function in Node); it is written to a
// temporary file and tested with `unzip -t`, whose exit code and output come back as JSON.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ZIP_CHECK_HOST = 'unzip.test';

export async function checkZip(request) {
  const dir = await mkdtemp(path.join(tmpdir(), 'zip-check-'));
  try {
    const file = path.join(dir, 'bundle.zip');
    await writeFile(file, new Uint8Array(await request.arrayBuffer()));
    const { code, output } = await new Promise((resolve) => {
      execFile('unzip', ['-t', file], (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, output: `${stdout}${stderr}` }));
    });
    return Response.json({ code, output });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
