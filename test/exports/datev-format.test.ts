// The DATEV format's field rules at their edges (developer.datev.de, DATEV-Format): Windows-1252 bytes, quoted texts,
// amounts with exactly two decimals whatever the currency's minor unit, and Belegfeld 1's few allowed characters.
import { describe, expect, it } from 'vitest';
import { encodeCp1252 } from '../../src/modules/exports/datev/cp1252';
import { amount, documentField, text } from '../../src/modules/exports/datev/format';

describe('the DATEV file\'s fields', () => {
  it('writes Windows-1252: Latin-1 as itself, € and the typographic quotes at 0x80–0x9F, accents dropped where it has no letter', () => {
    expect([...encodeCp1252('aé€„“”–Ÿ')]).toEqual([0x61, 0xe9, 0x80, 0x84, 0x93, 0x94, 0x96, 0x9f]);
    expect([...encodeCp1252('Łódź ā 漢 😀!')]).toEqual([...'?\xf3dz a ? ?!'].map((c) => c.charCodeAt(0)));
  });

  it('quotes texts, doubles their quotes, turns control characters into spaces and cuts them to length', () => {
    expect(text('Say "hi"', 60)).toBe('"Say ""hi"""');
    expect(text('two\nlines\tand\u0085more', 60)).toBe('"two lines and more"');
    expect(text('x'.repeat(70), 60)).toBe(`"${'x'.repeat(60)}"`);
  });

  it('writes amounts with a decimal comma and two decimals, unsigned, for any minor unit', () => {
    expect(amount(123_456, 2)).toBe('1234,56');
    expect(amount(5, 2)).toBe('0,05');
    expect(amount(-1_000, 2)).toBe('10,00');
    expect(amount(1_200, 0)).toBe('1200,00'); // JPY
    expect(amount(12_345, 3)).toBe('12,35'); // KWD, half away from zero
    expect(amount(10_000_000_000_000, 2)).toBe('100000000000,00');
  });

  it('keeps in Belegfeld 1 only letters, digits and $ & % * + - /, the last 36', () => {
    expect(documentField('INV_2026.0042#')).toBe('INV20260042');
    expect(documentField('R-2026/17 Ä')).toBe('R-2026/17');
    expect(documentField('A'.repeat(40) + 'XYZ')).toBe('A'.repeat(33) + 'XYZ');
  });
});
