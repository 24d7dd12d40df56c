// A local Wise for tests: outbound fetch to WISE_API_BASE (https://wise.test in vitest.config.ts) is
// answered here in Wise's own shapes (quotes v3, accounts, transfers with customerTransactionId,
// balance funding, transfer reads) and recorded; webhooks are signed the way Wise signs them, with
// an RSA key pair made here. Any other address fetched (a webhook receiver) is recorded and gets 200.
import { vi } from 'vitest';

export const WISE_TOKEN = 'wise-test-token-0000000000000abcd';
export const WISE_PROFILE = '16000001';

export type WiseRequest = { method: string; path: string; headers: Record<string, string>; body: any };
export type WiseTransfer = { id: number; customerTransactionId: string; status: string; targetAccount: number; quoteUuid: string; reference: string; fundings: number };

export type FakeWise = {
  requests: WiseRequest[];
  /** Everything fetched elsewhere (webhook deliveries), with its body. */
  elsewhere: { url: string; body: string }[];
  transfers: WiseTransfer[];
  accounts: any[];
  /**
   * ok: as Wise; down: no answer at all; lose-transfer-answer: the next POST /v1/transfers is made
   * but its answer is lost (a timeout); lose-funding-answer: the same for the next funding;
   * insufficient: funding is rejected; refuse-account: POST /v1/accounts is refused with a message
   * that echoes the account number and the token it was sent.
   */
  mode: 'ok' | 'down' | 'lose-transfer-answer' | 'lose-funding-answer' | 'insufficient' | 'refuse-account';
};

const FEE = 4.5;
const RATE = 0.92;

// Wise's ids are unique across everything it holds, and the test file's storage outlives each test.
let next = 50_000_000;

export function fakeWise(): FakeWise {
  const fake: FakeWise = { requests: [], elsewhere: [], transfers: [], accounts: [], mode: 'ok' };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const url = new URL(request.url);
    const text = await request.text();
    if (url.origin !== 'https://wise.test') {
      fake.elsewhere.push({ url: request.url, body: text });
      return new Response('ok');
    }
    const body = text ? JSON.parse(text) : null;
    fake.requests.push({ method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), body });
    if (fake.mode === 'down') throw new TypeError('fetch failed');
    if (request.headers.get('Authorization') !== `Bearer ${WISE_TOKEN}`) return Response.json({ error: 'unauthorized' }, { status: 401 });
    const path = url.pathname;
    if (request.method === 'POST' && path === `/v3/profiles/${WISE_PROFILE}/quotes`) {
      const target = Math.floor((body.sourceAmount - FEE) * RATE * 100) / 100;
      return Response.json({
        id: crypto.randomUUID(), sourceCurrency: body.sourceCurrency, targetCurrency: body.targetCurrency, sourceAmount: body.sourceAmount,
        targetAmount: target, rate: RATE, payOut: 'BANK_TRANSFER', rateType: 'FIXED', profile: Number(WISE_PROFILE),
        paymentOptions: [
          { payIn: 'BANK_TRANSFER', payOut: 'BANK_TRANSFER', fee: { total: FEE + 1 }, sourceAmount: body.sourceAmount, targetAmount: target - 1 },
          { payIn: 'BALANCE', payOut: 'BANK_TRANSFER', fee: { total: FEE }, sourceAmount: body.sourceAmount, targetAmount: target },
        ],
      });
    }
    if (request.method === 'POST' && path === '/v1/accounts') {
      if (fake.mode === 'refuse-account') {
        const number = String(body.details.iban ?? body.details.accountNumber).replace(/(.{4})/g, '$1 ');
        return Response.json({ errors: [{ code: 'NOT_VALID', message: `${number} is not valid for ${WISE_TOKEN}`, arguments: [number] }] }, { status: 422 });
      }
      const account = { id: ++next, ...body };
      fake.accounts.push(account);
      return Response.json(account);
    }
    if (request.method === 'POST' && path === '/v1/transfers') {
      let transfer = fake.transfers.find((t) => t.customerTransactionId === body.customerTransactionId);
      if (!transfer) {
        transfer = { id: ++next, customerTransactionId: body.customerTransactionId, status: 'incoming_payment_waiting', targetAccount: body.targetAccount, quoteUuid: body.quoteUuid, reference: body.details?.reference, fundings: 0 };
        fake.transfers.push(transfer);
      }
      if (fake.mode === 'lose-transfer-answer') {
        fake.mode = 'ok';
        throw new DOMException('The operation timed out.', 'TimeoutError');
      }
      return Response.json({ id: transfer.id, status: transfer.status, rate: RATE, targetValue: 914.86, sourceValue: 1000, customerTransactionId: transfer.customerTransactionId });
    }
    const funding = new RegExp(`^/v3/profiles/${WISE_PROFILE}/transfers/(\\d+)/payments$`).exec(path);
    if (request.method === 'POST' && funding) {
      const transfer = fake.transfers.find((t) => t.id === Number(funding[1]));
      if (!transfer) return Response.json({ errors: [{ code: 'NOT_FOUND', message: 'Transfer not found' }] }, { status: 404 });
      if (fake.mode === 'insufficient') return Response.json({ type: 'BALANCE', status: 'REJECTED', errorCode: 'transfer.insufficient_funds' });
      transfer.fundings++;
      transfer.status = 'processing';
      if (fake.mode === 'lose-funding-answer') {
        fake.mode = 'ok';
        throw new DOMException('The operation timed out.', 'TimeoutError');
      }
      return Response.json({ type: 'BALANCE', status: 'COMPLETED', errorCode: null });
    }
    const read = /^\/v1\/transfers\/(\d+)$/.exec(path);
    if (request.method === 'GET' && read) {
      const transfer = fake.transfers.find((t) => t.id === Number(read[1]));
      return transfer ? Response.json({ id: transfer.id, status: transfer.status }) : Response.json({ errors: [{ message: 'not found' }] }, { status: 404 });
    }
    return Response.json({ errors: [{ message: `No route ${request.method} ${path}` }] }, { status: 404 });
  });
  return fake;
}

const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** Wise's signing key pair, made for the test; `publicKeyPem` is what WISE_WEBHOOK_PUBLIC_KEY holds. */
export async function wiseSigningKeys() {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const spki = toBase64((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer);
  const publicKeyPem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
  const sign = async (body: string) => toBase64(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', pair.privateKey, new TextEncoder().encode(body)));
  return { publicKeyPem, sign };
}

/** A transfers#state-change as Wise sends it. */
export const stateChange = (transferId: number | string, current: string, previous = 'processing') =>
  JSON.stringify({
    data: { resource: { type: 'transfer', id: Number(transferId), profile_id: Number(WISE_PROFILE), account_id: 1 }, current_state: current, previous_state: previous, occurred_at: new Date().toISOString() },
    subscription_id: crypto.randomUUID(),
    event_type: 'transfers#state-change',
    schema_version: '2.0.0',
    sent_at: new Date().toISOString(),
  });
