// The write floor: only what creating a 5-line invoice must do, with no framework: hash the key
// (SHA-256), one KV read (key hash → workspace id), one D1 read (the client), then one D1 batch with
// the same statements the app sends (the next number, the invoice, its event with the invoice as
// JSON, its five lines, the number back), and the answer serialised. Money and dates are worked out
// as plainly as they can be; nothing is validated beyond what the database checks.
const json = (status, body) => Response.json(body, { status });

export default {
  async fetch(request, env) {
    const key = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
    const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const workspaceId = await env.KEYS.get(`key:${hash}`);
    if (!workspaceId) return json(401, { error: 'unauthorized' });
    const input = await request.json();
    const client = await env.DB.prepare('SELECT id, user_id, currency FROM clients WHERE id = ? AND workspace_id = ?').bind(input.client_id, workspaceId).first();
    if (!client) return json(404, { error: 'not_found' });

    const now = new Date().toISOString();
    const today = now.slice(0, 10);
    const id = `inv_${crypto.randomUUID()}`;
    const lines = input.line_items.map((line, position) => {
      const amount = Math.round(line.quantity * line.unit_amount);
      return { id: `li_${crypto.randomUUID()}`, position, ...line, amount, tax: Math.round((amount * line.tax_rate) / 100) };
    });
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const tax = lines.reduce((sum, l) => sum + l.tax, 0);
    const invoice = {
      id, number: '', status: 'draft', client_id: client.id, currency: client.currency, issue_date: today, due_date: today,
      subtotal, tax, total: subtotal + tax, amount_paid: 0, amount_due: subtotal + tax, created_at: now, updated_at: now,
      line_items: lines.map(({ id: lineId, description, quantity, unit_amount, tax_rate, amount, tax: lineTax }) => ({ id: lineId, description, quantity, unit_amount, tax_rate, amount, tax: lineTax })),
    };
    const number = 'SELECT invoice_prefix || printf(\'%06d\', invoice_seq) FROM workspaces WHERE id = ?';
    const rows = lines.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const results = await env.DB.batch([
      env.DB.prepare('UPDATE workspaces SET invoice_seq = invoice_seq + 1 WHERE id = ?').bind(workspaceId),
      env.DB.prepare(`INSERT INTO invoices (id, user_id, workspace_id, number, status, client_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, created_at, updated_at)
        SELECT ?, ?, ?, (${number}), 'draft', ?, ?, ?, ?, ?, ?, ?, 0, ?, ?`)
        .bind(id, client.user_id, workspaceId, workspaceId, client.id, client.currency, today, today, subtotal, tax, subtotal + tax, now, now),
      env.DB.prepare(`INSERT INTO events (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at)
        SELECT ?, ?, 'invoice.created', 'user', ?, 'Bench', ?, 'Invoice created', json_set(?, '$.object.number', (${number})), ?`)
        .bind(`evt_${crypto.randomUUID()}`, workspaceId, client.user_id, id, JSON.stringify({ object: invoice }), workspaceId, now),
      env.DB.prepare(`INSERT INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax) VALUES ${rows}`)
        .bind(...lines.flatMap((l) => [l.id, id, l.position, l.description, Math.round(l.quantity * 1000), l.unit_amount, Math.round(l.tax_rate * 1000), l.amount, l.tax])),
      env.DB.prepare('SELECT number FROM invoices WHERE id = ?').bind(id),
    ]);
    return json(201, { ...invoice, number: results.at(-1).results[0].number });
  },
};
