// The rate limiter counts in fixed windows of a minute on the clock. Tests that count requests up to
// a limit use these, so a slow machine that carries them across a window's end does not fail them.
import type { ApiResponse } from './api';

/**
 * The limiter counts in fixed windows of a minute on the clock: a test that counts `count` requests
 * starts with room for them left in its window (2 s, and 15 ms a request, up to 10 s), so its
 * requests all land in one window. Waiting for the next window costs up to that margin, so the
 * margin is no wider than the count needs.
 */
export async function inOneWindow(count = Infinity) {
  const margin = Math.min(10_000, 2_000 + 15 * count);
  const left = 60_000 - (Date.now() % 60_000);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * Sends `count` requests and returns the first 429, if any. On a busy machine the requests can
 * outlast the margin: when they ran into the next window without a 429, they are sent again from the
 * start of a fresh window, so only a limit that is really missing gives undefined.
 */
export async function firstLimited(count: number, send: (i: number) => Promise<ApiResponse>) {
  for (let attempt = 0; attempt < 2; attempt++) {
    await inOneWindow(count);
    const window = Math.floor(Date.now() / 60_000);
    for (let i = 0; i < count; i++) {
      const res = await send(i);
      if (res.status === 429) return { res, after: i };
    }
    if (Math.floor(Date.now() / 60_000) === window) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 50));
  }
  return undefined;
}

