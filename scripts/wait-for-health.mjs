// Waits for a worker that `wrangler dev` is starting to answer GET /health (the e2e checks and the
// /docs bench start one each).

/** Resolves once `${base}/health` answers 2xx; throws after `seconds`. */
export async function waitForHealth(base, seconds = 60) {
  for (let i = 0; i < seconds * 4; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the worker did not come up');
}
