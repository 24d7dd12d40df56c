// Finding keywords in a PDF's bytes, without turning the file into a string (a 25 MB file would be a 25–50 MB
// string beside its bytes, in a Worker's 128 MB). Each search is the platform's indexOf for a keyword's first byte,
// then a comparison; callers only ever search forward, so a whole pass over the file is linear.
import { isDigit, isRegular, isWhitespace } from './characters';

/** Where `word` next stands as a whole token at or after `from`, or -1. */
export function findWord(bytes: Uint8Array, word: string, from: number): number {
  const first = word.charCodeAt(0);
  for (let p = bytes.indexOf(first, from); p >= 0; p = bytes.indexOf(first, p + 1)) {
    let k = 1;
    while (k < word.length && bytes[p + k] === word.charCodeAt(k)) k++;
    if (k === word.length && !isRegular(bytes[p + k]) && !isRegular(bytes[p - 1])) return p;
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
    while (isWhitespace(bytes[q])) q--;
    const genEnd = q;
    while (isDigit(bytes[q]) && genEnd - q < 6) q--;
    if (q === genEnd || !isWhitespace(bytes[q])) continue;
    while (isWhitespace(bytes[q])) q--;
    const numEnd = q;
    while (isDigit(bytes[q]) && numEnd - q < 11) q--;
    if (q === numEnd || isRegular(bytes[q])) continue;
    let num = 0;
    for (let i = q + 1; i <= numEnd; i++) num = num * 10 + (bytes[i]! - 0x30);
    return { num, at: q + 1, end: p + 3 };
  }
  return null;
}
