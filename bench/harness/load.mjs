// Load from autocannon on loopback, bounded by request count and by time.
import autocannon from 'autocannon';

export function runLoad({ url, host, method = 'GET', headers = {}, body, connections = 10, amount = 2_000, maxSeconds = 20 }) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, method, headers: { host, ...headers }, body, connections, amount, timeout: 10 },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    const guard = setTimeout(() => instance.stop(), maxSeconds * 1000);
    instance.on('done', () => clearTimeout(guard));
  });
}
