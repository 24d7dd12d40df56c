// The webhook fan-out workload: one event to 10 endpoints, each a receiver on 127.0.0.1. For each of
// a series of writes (POST /v1/clients, whose client.created every endpoint subscribes to) it
// measures the D1 round trips and batches of the write (the change, its event and the 10 delivery
// rows are one batch; marking them enqueued is one more round trip, after the answer), the time from sending the write to the last receiver getting its delivery, and the
// workerd CPU spent per delivery, through the real queue and consumer.
import { createServer } from 'node:http';
import { cpuSeconds } from './cpu.mjs';
import { countD1Calls } from './d1-count.mjs';
import { quantile } from './load.mjs';

const ENDPOINTS = 10;
const EVENTS = 20;

function receivers(count, onDelivery) {
  return Promise.all(
    Array.from({ length: count }, () => new Promise((resolve) => {
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          onDelivery(req.headers['webhook-id']);
          res.writeHead(204).end();
        });
      }).listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
}

export async function measureFanout(mf, url, pid, account) {
  const arrivals = new Map(); // event id → times its deliveries arrived
  const servers = await receivers(ENDPOINTS, (id) => arrivals.set(id, [...(arrivals.get(id) ?? []), performance.now()]));
  const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json', host: 'app.bench' };
  const api = (path, body) => fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
  try {
    for (const server of servers) {
      await api('/api/webhook-endpoints', { url: `http://127.0.0.1:${server.address().port}/hooks`, events: ['client.created'] });
    }
    const counted = await countD1Calls(mf, { host: 'app.bench', path: '/v1/clients', method: 'POST', headers, body: JSON.stringify({ name: 'Counted' }) });
    const latencies = [];
    const cpuBefore = cpuSeconds(pid);
    for (let i = 0; i < EVENTS; i++) {
      const sent = performance.now();
      const client = await api('/v1/clients', { name: `Fan-out ${i}` });
      const eventId = await latestEventId(url, headers, client.id);
      const deadline = Date.now() + 30_000;
      while ((arrivals.get(eventId)?.length ?? 0) < ENDPOINTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const times = arrivals.get(eventId) ?? [];
      if (times.length < ENDPOINTS) throw new Error(`only ${times.length} of ${ENDPOINTS} deliveries of ${eventId} arrived`);
      latencies.push(Math.max(...times) - sent);
    }
    const cpu = cpuSeconds(pid) - cpuBefore;
    return {
      endpoints: ENDPOINTS,
      events: EVENTS,
      write_d1_calls: counted.calls,
      write_d1_batches: counted.batches,
      write_to_last_delivery_ms: { p50: Math.round(quantile(latencies, 0.5)), p90: Math.round(quantile(latencies, 0.9)), max: Math.round(Math.max(...latencies)) },
      // Everything workerd spent on the writes, their dispatch and the deliveries, per delivery.
      cpu_ms_per_delivery: Number(((cpu * 1000) / (EVENTS * ENDPOINTS)).toFixed(3)),
    };
  } finally {
    for (const server of servers) server.close();
  }
}

async function latestEventId(url, headers, clientId) {
  const page = await fetch(`${url}/api/events?type=client.created&limit=5`, { headers }).then((r) => r.json());
  return page.data.find((e) => e.data.object.id === clientId).id;
}
