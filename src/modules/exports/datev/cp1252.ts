// Windows-1252, the character set DATEV reads an EXTF file in unless it starts with a byte order mark (DATEV-Format,
// "Einstieg"): Latin-1 but for 0x80–0x9F, where it has € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ
// (the WHATWG Encoding Standard's index-windows-1252). A character it does not have becomes its letter without
// accents where there is one (ł stays, ā → a), else `?`.
const HIGH: Record<number, number> = {
  0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02c6: 0x88, 0x2030: 0x89,
  0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91, 0x2019: 0x92, 0x201c: 0x93, 0x201d: 0x94, 0x2022: 0x95,
  0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a, 0x203a: 0x9b, 0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f,
};

function byteOf(code: number): number | undefined {
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
  return HIGH[code];
}

/** The text in Windows-1252. */
export function encodeCp1252(value: string): Uint8Array {
  const out = new Uint8Array(value.length);
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const byte = byteOf(code);
    if (byte !== undefined) {
      out[n++] = byte;
      continue;
    }
    const point = value.codePointAt(i)!;
    if (point > 0xffff) i++; // a surrogate pair is one character, and becomes one byte
    out[n++] = byteOf(String.fromCodePoint(point).normalize('NFKD').charCodeAt(0)) ?? 0x3f;
  }
  return out.subarray(0, n);
}
