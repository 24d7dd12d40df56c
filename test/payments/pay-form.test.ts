// The pay button's form (§16) is public: whatever a browser, a script or a scanner posts to
// /i/<token>/pay is answered with the invoice page and a 4xx that says what went wrong, never a
// 5xx, and nothing is charged. The plain button (an empty form) and a well-formed amount still pay.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { fakeStripe, raw } from './fake-stripe';

beforeEach(() => {
  fakeStripe();
});
afterEach(() => vi.restoreAllMocks());

/** An open invoice of $1,000.00 in a sandbox-connected workspace that takes partial payments. */
async function payableInvoice() {
  const owner = await createUser('Owner');
  await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'sandbox' } });
  await call('PATCH', '/api/workspace', { key: owner.key, body: { payments_allow_partial: true } });
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  const draft = await createInvoice(owner.key, { client_id: client.id });
  const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
  return { owner, invoice };
}

const FORM = 'application/x-www-form-urlencoded';
const multipart = (boundary: string, part: string) => `--${boundary}\r\nContent-Disposition: form-data; ${part}\r\n--${boundary}--\r\n`;

const malformed: [string, number, string | undefined, BodyInit][] = [
  ['multipart without a boundary', 400, 'multipart/form-data', 'amount=10'],
  ['multipart whose body does not match its boundary', 400, 'multipart/form-data; boundary=xyz', 'not multipart at all'],
  ['multipart with the amount as a file', 400, 'multipart/form-data; boundary=xyz', multipart('xyz', 'name="amount"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n10')],
  ['a form that is not UTF-8', 400, FORM, new Uint8Array([0x61, 0x6d, 0x6f, 0x75, 0x6e, 0x74, 0x3d, 0xff, 0xfe])],
  ['a form with two amounts', 400, FORM, 'amount=10&amount=20'],
  ['an amount that is not a decimal', 422, FORM, 'amount=ten'],
  ['an amount in broken percent-encoding', 422, FORM, 'amount=%E0%A4%A'],
  ['an amount of 400 digits', 422, FORM, `amount=${'9'.repeat(400)}`],
  ['a body of a megabyte', 413, FORM, `amount=${'1'.repeat(1024 * 1024)}`],
  ['a JSON body', 415, 'application/json', '{"amount":"10.00"}'],
  ['a text body', 415, 'text/plain', 'amount=10.00'],
  ['a body with no type', 415, undefined, 'amount=10.00'],
];

describe('the pay button\'s form', () => {
  it('answers every malformed body with the invoice page and a 4xx, and charges nothing', async () => {
    const { owner, invoice } = await payableInvoice();
    for (const [name, status, type, body] of malformed) {
      const res = await raw(`${invoice.hosted_url}/pay`, { method: 'POST', headers: type ? { 'Content-Type': type } : {}, body });
      expect(res.status, name).toBe(status);
      expect(res.headers.get('Content-Type'), name).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, name).toContain(invoice.number);
      expect(html, name).toContain('<p class="notice bad" role="status">');
    }
    expect((await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data).toEqual([]);
  });

  it('still pays from the plain button (an empty form, or no body at all) and from a well-formed amount', async () => {
    const { owner, invoice } = await payableInvoice();
    const presses: RequestInit[] = [
      { method: 'POST', headers: { 'Content-Type': FORM }, body: '' },
      { method: 'POST' },
      { method: 'POST', headers: { 'Content-Type': FORM }, body: 'amount=250.00' },
      { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' }, body: multipart('xyz', 'name="amount"\r\n\r\n300.00') },
    ];
    for (const press of presses) expect((await raw(`${invoice.hosted_url}/pay`, press)).status).toBe(303);
    const attempts = (await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data;
    expect(attempts.map((a: any) => a.amount).sort()).toEqual([100_000, 25_000, 30_000]);
  });
});
