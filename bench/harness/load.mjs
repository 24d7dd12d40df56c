// Load from autocannon on loopback, bounded by request count and by time. Throughput and latency
// come from each response as it arrives: autocannon's own summary only ends on its next 1-second
// sample tick, which would round every run's duration up to whole seconds.
import autocannon from 'autocannon';

export function runLoad({ url, host, method = 'GET', headers = {}, body, freshRequest, connections, amount, maxSeconds }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = {};
    let lastResponse = 0;
    // What changes per request (an Idempotency-Key, the next draft to send) through autocannon's
    // per-request hook: `freshRequest()` answers `{ headers?, path?, body? }`.
    const fresh = (req) => {
      const { headers: more = {}, path, body: own } = freshRequest();
      return { ...req, ...(path ? { path } : {}), ...(own ? { body: own } : {}), headers: { ...req.headers, ...more } };
    };
    const requests = freshRequest ? [{ setupRequest: fresh }] : undefined;
    const started = performance.now();
    const instance = autocannon(
      { url, method, headers: { host, ...headers }, body, requests, connections, amount, timeout: 10, sampleInt: 100 },
      (err, result) => {
        clearTimeout(guard);
        if (err) return reject(err);
        resolve({ latencies, statuses, errors: result.errors, seconds: (lastResponse - started) / 1000 });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
      lastResponse = performance.now();
    });
    const guard = setTimeout(() => instance.stop(), maxSeconds * 1000);
  });
}

/** The q-quantile of `values` (0 ≤ q ≤ 1), nearest rank. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
