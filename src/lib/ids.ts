// Ids are a type prefix, `_`, and a ULID (Crockford base32: 10 chars of time, 16 of randomness).
// ULIDs sort by creation time, so `ORDER BY id DESC` is "newest first" and doubles as the list cursor.
export const ID_PREFIXES = {
  user: 'usr',
  key: 'key',
  waitlist: 'wl',
  invitation: 'ivt',
  client: 'cli',
  project: 'prj',
  invoice: 'inv',
  lineItem: 'li',
  payment: 'pay',
  expense: 'exp',
  gig: 'gig',
  transfer: 'trf',
  suggestion: 'sug',
  activity: 'act',
  workspace: 'wsp',
  membership: 'mem',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  emailDelivery: 'dlv',
  recurringInvoice: 'rin',
  paymentProvider: 'ppr',
  paymentAttempt: 'pat',
  refund: 'rfd',
  timeEntry: 'te',
  creditNote: 'cn',
  creditNoteLine: 'cnl',
  quote: 'quo',
  transferQuote: 'rq',
  payoutProvider: 'pop',
  inboundDocument: 'ind',
  export: 'xpt',
  proposal: 'prp',
  mcpProposal: 'mcp',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

let lastTime = -1;
let lastTimeText = '';
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Random bytes come from the CSPRNG a block at a time: a call of its own for each id's 16 was a
// noticeable part of a create, which makes one id for the invoice, its event and each line.
const pool = new Uint8Array(16 * 64);
let pooled = pool.length;

function randomDigits(): number[] {
  if (pooled === pool.length) {
    crypto.getRandomValues(pool);
    pooled = 0;
  }
  const digits = new Array<number>(16);
  for (let i = 0; i < 16; i++) digits[i] = pool[pooled + i]! % 32;
  pooled += 16;
  return digits;
}

// Monotonic within an isolate: two ids made in the same millisecond still sort in creation order.
function nextRandom(ms: number): number[] {
  if (ms !== lastTime) {
    lastTime = ms;
    lastTimeText = encodeTime(ms);
    lastRandom = randomDigits();
    return lastRandom;
  }
  const next = [...lastRandom];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]!++;
      break;
    }
    next[i] = 0;
  }
  lastRandom = next;
  return next;
}

export function ulid(ms = Date.now()): string {
  const random = nextRandom(ms);
  let out = lastTimeText;
  for (const digit of random) out += ALPHABET[digit];
  return out;
}

export function newId(kind: IdKind, ms?: number): string {
  return `${ID_PREFIXES[kind]}_${ulid(ms)}`;
}

export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_${ULID_PATTERN}$`);
}

export function isId(kind: IdKind, value: string): boolean {
  return idPattern(kind).test(value);
}

/**
 * The ULID of an id written as a UUID (the same 128 bits, 8-4-4-4-12 hex), for providers that take
 * only UUIDs as idempotency keys (Wise's customerTransactionId): one id, one UUID, always.
 */
export function idAsUuid(id: string): string {
  const ulid = id.slice(id.indexOf('_') + 1);
  let value = 0n;
  for (const ch of ulid) value = value * 32n + BigInt(ALPHABET.indexOf(ch));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
