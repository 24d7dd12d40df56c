// A webhook receiver for local development: listens on 127.0.0.1, prints every delivery, and, given
// the endpoint's secret, verifies its Standard Webhooks signature as a real receiver must.
//   node scripts/webhook-receiver.mjs [port] [whsec_…]      (default port 9000; or WEBHOOK_SECRET=whsec_…)
// Answers 204 to a delivery that verifies (or to any, without a secret) and 400 to one that does not.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const port = Number(process.argv[2] ?? 9000);
const secret = process.argv[3] ?? process.env.WEBHOOK_SECRET;
const verifier = secret ? new Webhook(secret) : null;

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': req.headers['webhook-id'],
      'webhook-timestamp': req.headers['webhook-timestamp'],
      'webhook-signature': req.headers['webhook-signature'],
    };
    let verdict = 'not verified (no secret given)';
    let status = 204;
    if (verifier) {
      try {
        verifier.verify(body, headers);
        verdict = 'signature verified';
      } catch (err) {
        verdict = `SIGNATURE REJECTED: ${err.message}`;
        status = 400;
      }
    }
    let event;
    try {
      event = JSON.parse(body);
    } catch {
      event = body;
    }
    console.log(`\n${new Date().toISOString()} ${req.method} ${req.url} — ${event?.type ?? '?'} ${headers['webhook-id'] ?? ''} — ${verdict}`);
    console.log(JSON.stringify(event, null, 2));
    res.writeHead(status).end();
  });
}).listen(port, '127.0.0.1', () => {
  console.log(`Receiving webhooks on http://127.0.0.1:${port}/ (${verifier ? 'verifying signatures' : 'pass the endpoint secret to verify signatures'})`);
});
