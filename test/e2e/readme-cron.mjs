// The README's way to fire the cron on wrangler dev, run as written (only the port differs): a
// recurring invoice starting today gets its first invoice from that one request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export async function checkReadmeCron({ root, base, key }) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const command = readme.match(/^curl '(http:\/\/localhost:8787\/__scheduled[^']*)'/m);
  if (!command) throw new Error('README: no curl line for /__scheduled');
  const api = (method, path, body) =>
    fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) }).then((r) => r.json());

  const client = await api('POST', '/v1/clients', { name: 'Retainer Client', currency: 'USD' });
  const { time_zone: timeZone } = await api('GET', '/api/workspace');
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  const schedule = await api('POST', '/v1/recurring-invoices', {
    client_id: client.id, interval: 'month', start_date: today, line_items: [{ description: 'Retainer', quantity: 1, unit_amount: 250000 }],
  });
  if (!schedule.id) throw new Error(`recurring invoice not created: ${JSON.stringify(schedule)}`);

  const fired = await fetch(command[1].replace('http://localhost:8787', base));
  const text = await fired.text();
  if (!fired.ok || !text.includes('Ran scheduled event')) throw new Error(`README cron line answered ${fired.status}: ${text.slice(0, 200)}`);
  const issued = await api('GET', `/v1/invoices?recurring_invoice_id=${schedule.id}`);
  if (issued.data?.length !== 1 || issued.data[0].issue_date !== today) throw new Error(`the cron issued ${JSON.stringify(issued).slice(0, 300)}`);
  console.log('e2e: the README cron line issued the first recurring invoice');
}
