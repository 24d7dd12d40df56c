// The single-byte encodings of simple fonts (ISO 32000-1 Annex D) as code → character, and the glyph names a
// font's /Differences may use: every name of WinAnsiEncoding and StandardEncoding, plus `uniXXXX` and `uXXXX`.
// Enough for the Latin text of an invoice; a symbolic font's own encoding cannot be read without its program.

const WIN_ANSI_NAMES = [
  'space', 'exclam', 'quotedbl', 'numbersign', 'dollar', 'percent', 'ampersand', 'quotesingle', 'parenleft', 'parenright',
  'asterisk', 'plus', 'comma', 'hyphen', 'period', 'slash', 'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven',
  'eight', 'nine', 'colon', 'semicolon', 'less', 'equal', 'greater', 'question', 'at',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'bracketleft', 'backslash', 'bracketright', 'asciicircum', 'underscore', 'grave',
  ...'abcdefghijklmnopqrstuvwxyz',
  'braceleft', 'bar', 'braceright', 'asciitilde', 'bullet',
  'Euro', '', 'quotesinglbase', 'florin', 'quotedblbase', 'ellipsis', 'dagger', 'daggerdbl', 'circumflex', 'perthousand',
  'Scaron', 'guilsinglleft', 'OE', '', 'Zcaron', '', '', 'quoteleft', 'quoteright', 'quotedblleft', 'quotedblright',
  'bullet', 'endash', 'emdash', 'tilde', 'trademark', 'scaron', 'guilsinglright', 'oe', '', 'zcaron', 'Ydieresis',
  'space', 'exclamdown', 'cent', 'sterling', 'currency', 'yen', 'brokenbar', 'section', 'dieresis', 'copyright',
  'ordfeminine', 'guillemotleft', 'logicalnot', 'hyphen', 'registered', 'macron', 'degree', 'plusminus', 'twosuperior',
  'threesuperior', 'acute', 'mu', 'paragraph', 'periodcentered', 'cedilla', 'onesuperior', 'ordmasculine',
  'guillemotright', 'onequarter', 'onehalf', 'threequarters', 'questiondown',
  'Agrave', 'Aacute', 'Acircumflex', 'Atilde', 'Adieresis', 'Aring', 'AE', 'Ccedilla', 'Egrave', 'Eacute', 'Ecircumflex',
  'Edieresis', 'Igrave', 'Iacute', 'Icircumflex', 'Idieresis', 'Eth', 'Ntilde', 'Ograve', 'Oacute', 'Ocircumflex',
  'Otilde', 'Odieresis', 'multiply', 'Oslash', 'Ugrave', 'Uacute', 'Ucircumflex', 'Udieresis', 'Yacute', 'Thorn',
  'germandbls', 'agrave', 'aacute', 'acircumflex', 'atilde', 'adieresis', 'aring', 'ae', 'ccedilla', 'egrave', 'eacute',
  'ecircumflex', 'edieresis', 'igrave', 'iacute', 'icircumflex', 'idieresis', 'eth', 'ntilde', 'ograve', 'oacute',
  'ocircumflex', 'otilde', 'odieresis', 'divide', 'oslash', 'ugrave', 'uacute', 'ucircumflex', 'udieresis', 'yacute',
  'thorn', 'ydieresis',
];

const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const MAC_ROMAN_HIGH =
  'ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄¤‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ';

const latinOne = (code: number) => String.fromCharCode(code);

/** WinAnsiEncoding: Windows-1252, as most simple fonts (and pdf-lib's standard fonts) encode text. */
export const WIN_ANSI: readonly string[] = Array.from({ length: 256 }, (_, code) =>
  code < 0x20 ? '' : code === 0x7f ? '•' : code >= 0x80 && code < 0xa0 ? CP1252_HIGH[code - 0x80]! : latinOne(code),
);

export const MAC_ROMAN: readonly string[] = Array.from({ length: 256 }, (_, code) =>
  code < 0x20 || code === 0x7f ? '' : code < 0x80 ? latinOne(code) : MAC_ROMAN_HIGH[code - 0x80]!,
);

const GLYPHS = new Map<string, string>();
WIN_ANSI_NAMES.forEach((name, i) => {
  if (name && !GLYPHS.has(name)) GLYPHS.set(name, WIN_ANSI[i + 0x20]!);
});
GLYPHS.set('bullet', '•');
for (const [name, char] of Object.entries({
  fraction: '⁄', fi: 'ﬁ', fl: 'ﬂ', ff: 'ﬀ', ffi: 'ﬃ', ffl: 'ﬄ', dotlessi: 'ı', Lslash: 'Ł', lslash: 'ł', breve: '˘',
  dotaccent: '˙', ring: '˚', hungarumlaut: '˝', ogonek: '˛', caron: 'ˇ', minus: '−', nbspace: '\u00a0', sfthyphen: '\u00ad',
  Omega: 'Ω', mu1: 'µ', periodcentered: '·', Euro: '€',
})) GLYPHS.set(name, char);

/** StandardEncoding: ASCII but for its curly quotes at 0x27 and 0x60, and its own upper half. */
const STANDARD_HIGH: Record<number, string> = {
  0xa1: 'exclamdown', 0xa2: 'cent', 0xa3: 'sterling', 0xa4: 'fraction', 0xa5: 'yen', 0xa6: 'florin', 0xa7: 'section',
  0xa8: 'currency', 0xa9: 'quotesingle', 0xaa: 'quotedblleft', 0xab: 'guillemotleft', 0xac: 'guilsinglleft',
  0xad: 'guilsinglright', 0xae: 'fi', 0xaf: 'fl', 0xb1: 'endash', 0xb2: 'dagger', 0xb3: 'daggerdbl',
  0xb4: 'periodcentered', 0xb6: 'paragraph', 0xb7: 'bullet', 0xb8: 'quotesinglbase', 0xb9: 'quotedblbase',
  0xba: 'quotedblright', 0xbb: 'guillemotright', 0xbc: 'ellipsis', 0xbd: 'perthousand', 0xbf: 'questiondown',
  0xc1: 'grave', 0xc2: 'acute', 0xc3: 'circumflex', 0xc4: 'tilde', 0xc5: 'macron', 0xc6: 'breve', 0xc7: 'dotaccent',
  0xc8: 'dieresis', 0xca: 'ring', 0xcb: 'cedilla', 0xcd: 'hungarumlaut', 0xce: 'ogonek', 0xcf: 'caron', 0xd0: 'emdash',
  0xe1: 'AE', 0xe3: 'ordfeminine', 0xe8: 'Lslash', 0xe9: 'Oslash', 0xea: 'OE', 0xeb: 'ordmasculine', 0xf1: 'ae',
  0xf5: 'dotlessi', 0xf8: 'lslash', 0xf9: 'oslash', 0xfa: 'oe', 0xfb: 'germandbls',
};
export const STANDARD: readonly string[] = Array.from({ length: 256 }, (_, code) =>
  code === 0x27 ? '’' : code === 0x60 ? '‘' : code >= 0x20 && code < 0x7f ? latinOne(code) : code >= 0xa1 ? glyph(STANDARD_HIGH[code] ?? '') : '',
);

/** The character a glyph name stands for; '' when it names none we know (`g42`, a symbol font's own names). */
export function glyph(name: string): string {
  const known = GLYPHS.get(name);
  if (known !== undefined) return known;
  const uni = /^uni([0-9A-Fa-f]{4})/.exec(name) ?? /^u([0-9A-Fa-f]{4,6})$/.exec(name);
  if (uni) {
    const code = Number.parseInt(uni[1]!, 16);
    if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return String.fromCodePoint(code);
  }
  return '';
}

export function baseEncoding(name: string | null): readonly string[] | null {
  if (name === 'WinAnsiEncoding') return WIN_ANSI;
  if (name === 'MacRomanEncoding') return MAC_ROMAN;
  if (name === 'StandardEncoding') return STANDARD;
  return null;
}
