// The test runtime's own guard: an outbound request nobody mocked never leaves the machine.
import { expect, it } from 'vitest';

it('answers unmocked outbound requests locally with a 503', async () => {
  const res = await fetch('https://open.er-api.com/v6/latest/USD');
  expect(res.status).toBe(503);
  expect(await res.text()).toContain('disabled in tests');
});
