// Finding keywords in a PDF's bytes, without turning the file into a string (a 25 MB file would be a 25–50 MB
// string beside its bytes, in a Worker's 128 MB). Each search is the platform's indexOf for a keyword's first byte,
// then a comparison; callers only ever search forward, so a whole pass over the file is linear.

const SPACE = 1;
const DELIMITER = 2;
const CLASS = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) CLASS[c] = SPACE;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = DELIMITER;

const isSpace = (c: number | undefined) => c !== undefined && CLASS[c] === SPACE;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
/** Not whitespace and not a delimiter: a byte that continues a token. */
const continuesToken = (c: number | undefined) => c !== undefined && CLASS[c] === 0;

/** Where `word` next stands as a whole token at or after `from`, or -1. */
export function findWord(bytes: Uint8Array, word: string, from: number): number {
  const first = word.charCodeAt(0);
  for (let p = bytes.indexOf(first, from); p >= 0; p = bytes.indexOf(first, p + 1)) {
    let k = 1;
    while (k < word.length && bytes[p + k] === word.charCodeAt(k)) k++;
    if (k === word.length && !continuesToken(bytes[p + k]) && !continuesToken(bytes[p - 1])) return p;
  }
  return -1;
}

/** Where `word` next occurs at or after `from` (as bytes, inside a token or not), or -1. */
export function findBytes(bytes: Uint8Array, word: string, from: number): number {
  const first = word.charCodeAt(0);
  for (let p = bytes.indexOf(first, from); p >= 0; p = bytes.indexOf(first, p + 1)) {
    let k = 1;
    while (k < word.length && bytes[p + k] === word.charCodeAt(k)) k++;
    if (k === word.length) return p;
  }
  return -1;
}

/** The next `num gen obj` at or after `from`: its object number, where it starts and where `obj` ends; or null. */
export function findObject(bytes: Uint8Array, from: number): { num: number; at: number; end: number } | null {
  for (let p = findWord(bytes, 'obj', from); p >= 0; p = findWord(bytes, 'obj', p + 3)) {
    // Back from `obj` over whitespace, the generation, whitespace, the number; a short walk for any real match.
    let q = p - 1;
    while (isSpace(bytes[q])) q--;
    const genEnd = q;
    while (isDigit(bytes[q]) && genEnd - q < 6) q--;
    if (q === genEnd || !isSpace(bytes[q])) continue;
    while (isSpace(bytes[q])) q--;
    const numEnd = q;
    while (isDigit(bytes[q]) && numEnd - q < 11) q--;
    if (q === numEnd || continuesToken(bytes[q])) continue;
    let num = 0;
    for (let i = q + 1; i <= numEnd; i++) num = num * 10 + (bytes[i]! - 0x30);
    return { num, at: q + 1, end: p + 3 };
  }
  return null;
}
