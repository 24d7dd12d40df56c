// The PDF's classes of characters (ISO 32000-1, 7.2.2): white-space, delimiters, and the regular characters
// that make up names, numbers and keywords. The object reader and the keyword search read bytes by them.

export const WHITESPACE = 1;
export const DELIMITER = 2;
/** Each byte's class: WHITESPACE, DELIMITER, or 0 for a regular character. */
export const CLASS = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) CLASS[c] = WHITESPACE;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = DELIMITER;

export const isWhitespace = (c: number | undefined) => c !== undefined && CLASS[c] === WHITESPACE;
/** A character that continues a name, number or keyword (past the end of the bytes, none does). */
export const isRegular = (c: number | undefined) => c !== undefined && CLASS[c] === 0;
export const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
