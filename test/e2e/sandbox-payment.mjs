// Getting paid online as a client meets it, in a real browser: Chromium at phone width opens a
// hosted invoice, presses Pay, completes the sandbox's TEST MODE checkout, lands back on the page
// and sees it PAID, with no CSP or console error on the way (the form posts to the worker, which
// redirects to the checkout); the owner then finds the online payment, its events and a receipt
// email in the outbox.

async function api(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function checkSandboxPayment({ base, key, browser }) {
  await api(base, key, 'PUT', '/api/workspace/payment-provider', { provider: 'sandbox' });
  const client = await api(base, key, 'POST', '/v1/clients', { name: 'Initech', email: 'ap@initech.example' });
  const draft = await api(base, key, 'POST', '/v1/invoices', { client_id: client.id, line_items: [{ description: 'Design', quantity: 1, unit_amount: 125_000 }] });
  const invoice = await api(base, key, 'POST', `/v1/invoices/${draft.id}/send`, { email: false });

  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (err) => problems.push(String(err)));
    await page.goto(invoice.hosted_url, { waitUntil: 'networkidle' });
    const pay = page.getByRole('button', { name: /^Pay \$1,250\.00 online$/ });
    await pay.click();
    await page.waitForURL(/\/sandbox\/checkout\/pat_/);
    if (!(await page.textContent('body')).includes('TEST MODE')) throw new Error('the sandbox checkout does not say TEST MODE');
    await page.getByRole('button', { name: /^Pay \$1,250\.00$/ }).click();
    await page.waitForURL((url) => url.href === `${invoice.hosted_url}?payment=success`);
    await page.waitForLoadState('networkidle');
    const shown = await page.textContent('body');
    if (!shown.includes('PAID')) throw new Error('back on the hosted page, the invoice is not shown PAID');
    if (problems.length) throw new Error(`the pay flow logged errors: ${problems.join(' | ')}`);
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
    if (width.scroll > width.view) throw new Error(`the paid page scrolls sideways at 375 px (${width.scroll} px wide)`);
  } finally {
    await context.close();
  }

  const after = await api(base, key, 'GET', `/v1/invoices/${invoice.id}`);
  if (after.status !== 'paid') throw new Error(`the invoice is ${after.status}, not paid`);
  const payments = (await api(base, key, 'GET', `/v1/invoices/${invoice.id}/payments`)).data;
  if (payments.length !== 1 || payments[0].source !== 'online' || payments[0].provider !== 'sandbox') throw new Error(`unexpected payments: ${JSON.stringify(payments)}`);
  const events = (await api(base, key, 'GET', '/api/events?limit=100')).data.filter((e) => e.data.object.id === invoice.id).map((e) => e.type);
  for (const type of ['invoice.payment_recorded', 'invoice.paid']) if (!events.includes(type)) throw new Error(`no ${type} event: ${events.join(', ')}`);
  const deliveries = (await api(base, key, 'GET', `/v1/invoices/${invoice.id}/deliveries`)).data;
  if (!deliveries.some((d) => d.kind === 'receipt' && d.to.includes('ap@initech.example'))) throw new Error(`no receipt in the outbox: ${JSON.stringify(deliveries)}`);
  console.log('e2e: the client paid a hosted invoice through the sandbox checkout in Chromium; the owner sees the payment, its events and the receipt');
}
