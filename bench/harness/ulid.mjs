// ULIDs for seeded rows, like src/lib/ids.ts makes them: 10 Crockford base32 characters of
// milliseconds, then 16 of randomness. `ulid` is for rows made one at a time in JS; `ulidSql` is the
// same thing as an SQL expression, for rows made in bulk by INSERT … SELECT.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function ulid(ms) {
  let time = '';
  for (let i = 0, rest = ms; i < 10; i++, rest = Math.floor(rest / 32)) time = ALPHABET[rest % 32] + time;
  return time + Array.from(randomBytes(16), (b) => ALPHABET[b % 32]).join('');
}

/**
 * An SQL expression for a ULID at `msSql` (an integer expression). The random part is 16 hex digits,
 * which are all Crockford base32 characters. Rows made at distinct milliseconds sort by time.
 */
export function ulidSql(msSql) {
  const time = Array.from({ length: 10 }, (_, i) => `substr('${ALPHABET}', ((${msSql}) / ${32 ** (9 - i)}) % 32 + 1, 1)`);
  return `(${time.join(' || ')} || hex(randomblob(8)))`;
}
