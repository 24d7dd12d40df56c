// The quote as a client meets it, in Chromium at phone width (375 px): the client opens the link
// the email carries, accepts with their name and PO and sees the quote accepted; another quote is
// declined with a reason; a post forged on another origin changes nothing; an expired quote offers
// no form. No console errors (CSP included) and no horizontal scroll on the way.

async function api(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function checkHostedQuote({ base, key, browser }) {
  const client = await api(base, key, 'POST', '/v1/clients', { name: 'Initech', email: 'ap@initech.example' });
  const lines = [{ description: 'Brand workshop, two days on site with the whole team, notes and a written summary', quantity: 2, unit: 'DAY', unit_amount: 80_000, tax_rate: 19 }];
  const sent = async (body = {}) => {
    const quote = await api(base, key, 'POST', '/v1/quotes', { client_id: client.id, line_items: lines, terms: 'Half up front.', ...body });
    return api(base, key, 'POST', `/v1/quotes/${quote.id}/send`, { email: false });
  };
  const [toAccept, toDecline, toForge, expired] = [await sent(), await sent(), await sent(), await sent({ issue_date: '2024-01-01', valid_until: '2024-01-31' })];

  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (err) => problems.push(String(err)));
    const noSideways = async (what) => {
      const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
      if (width.scroll > width.view) throw new Error(`${what} scrolls sideways at 375 px (${width.scroll} px wide)`);
    };

    // Accept with name and PO: the form posts to the page, which answers 303 back to itself.
    await page.goto(toAccept.hosted_url, { waitUntil: 'networkidle' });
    await noSideways('the quote page');
    await page.fill('#name', 'Bill Lumbergh');
    await page.fill('#po_number', 'PO-7781');
    await page.check('input[name=agree]');
    await Promise.all([page.waitForURL(toAccept.hosted_url), page.click('form.accept button')]);
    const acceptedText = await page.textContent('body');
    if (!acceptedText.includes('Accepted by Bill Lumbergh') || (await page.$('form'))) throw new Error('the accepted quote does not show its acceptance without forms');
    const accepted = await api(base, key, 'GET', `/v1/quotes/${toAccept.id}`);
    if (accepted.status !== 'accepted' || accepted.accepted?.po_number !== 'PO-7781' || accepted.accepted?.name !== 'Bill Lumbergh') throw new Error(`accepting in the browser left ${JSON.stringify(accepted.accepted)}`);

    // Decline with a reason.
    await page.goto(toDecline.hosted_url, { waitUntil: 'networkidle' });
    await page.fill('#reason', 'Over budget this quarter.');
    await Promise.all([page.waitForURL(toDecline.hosted_url), page.click('form.decline button')]);
    if (!(await page.textContent('body')).includes('Declined on')) throw new Error('the declined quote does not say so');
    const declined = await api(base, key, 'GET', `/v1/quotes/${toDecline.id}`);
    if (declined.status !== 'declined' || declined.declined?.reason !== 'Over budget this quarter.') throw new Error(`declining in the browser left ${JSON.stringify(declined)}`);
    if (problems.length) throw new Error(`the quote page logged errors: ${problems.join(' | ')}`);

    // A form on another origin posting to the quote: refused, nothing changes.
    const forged = `<form method="post" action="${toForge.hosted_url}/accept"><input name="name" value="Mallory"><input name="agree" value="yes"><button>Go</button></form>`;
    await page.goto(`data:text/html,${encodeURIComponent(forged)}`);
    const [response] = await Promise.all([page.waitForNavigation(), page.click('button')]);
    if (response?.status() !== 403) throw new Error(`a forged cross-origin post answered ${response?.status()}`);
    if ((await api(base, key, 'GET', `/v1/quotes/${toForge.id}`)).status !== 'open') throw new Error('a forged cross-origin post changed the quote');

    // An expired quote says so and offers no form.
    await page.goto(expired.hosted_url, { waitUntil: 'networkidle' });
    await noSideways('the expired quote page');
    if (!(await page.textContent('body')).includes('This quote has expired') || (await page.$('form'))) throw new Error('the expired quote offers a form or does not say why');
    console.log('e2e: hosted quote in Chromium at 375 px: accepted with name and PO, declined with a reason, a forged cross-origin post refused, an expired quote without a form');
  } finally {
    await context.close();
  }
}
