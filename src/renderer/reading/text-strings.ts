// Bytes as text where the PDF says how (ISO 32000-1 §7.9.2): a text string is UTF-16BE after its byte order mark,
// UTF-8 after its mark (PDF 2.0), else PDFDocEncoding, whose printable part is Latin-1. Decoded by hand rather
// than by TextDecoder, which in a Worker knows UTF-8 and UTF-16LE only.

export function textString(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes.subarray(2), false);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder().decode(bytes.subarray(3));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** UTF-16 code units, big- or little-endian; an odd last byte is dropped. */
export function utf16(bytes: Uint8Array, littleEndian: boolean): string {
  const units: number[] = [];
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    units.push(littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
    if (units.length === 8192) text += String.fromCharCode(...units.splice(0));
  }
  return text + String.fromCharCode(...units);
}
