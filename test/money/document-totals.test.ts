// The line and tax model of §15, as a table at its edges: half units, zero- and three-decimal
// currencies, 100 lines, discounts split over tax groups (a part larger than a group, a part that
// rounds to zero, ties), both rounding modes, and the category rules.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import { type DocumentLineInput, documentTotals, type DocumentTotalsInput } from '../../src/modules/documents/totals';
import { buildLines, storedDocumentTotals } from '../../src/modules/invoices/lines';

const doc = (lines: DocumentLineInput[], more: Partial<DocumentTotalsInput> = {}) =>
  documentTotals({ lines, tax_rounding: 'line', issuer_has_vat_id: true, ...more });

/** The invariants every document keeps, whatever its lines. */
function expectAddsUp(t: ReturnType<typeof documentTotals>) {
  expect(t.subtotal).toBe(t.lines.reduce((s, l) => s + l.amount, 0));
  expect(t.tax_breakdown.reduce((s, g) => s + g.taxable_amount, 0)).toBe(t.subtotal - t.discount_total);
  expect(t.tax_breakdown.reduce((s, g) => s + g.tax_amount, 0)).toBe(t.tax);
  expect(t.tax_breakdown.reduce((s, g) => s + g.discount_amount, 0)).toBe(t.discount_total);
  expect(t.total).toBe(t.subtotal - t.discount_total + t.tax);
  for (const l of t.lines) expect(l.amount).toBe(l.gross - l.discount_amount);
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    return (err as ApiError).details!.map((d) => d.path);
  }
  throw new Error('expected a 422');
};

describe('lines', () => {
  it.each([
    // quantity, unit_amount, discount %, rate → gross, discount, amount, tax
    ['half a unit of gross rounds up', 0.5, 3, 0, 0, 2, 0, 2, 0],
    ['half a unit of discount rounds up', 1, 5, 10, 0, 5, 1, 4, 0],
    ['half a unit of tax rounds up', 1, 5, 0, 10, 5, 0, 5, 1],
    ['just under half rounds down', 1, 1249, 0, 0.04, 1249, 0, 1249, 0],
    ['three-decimal quantity and percent', 1.125, 1000, 33.333, 8.25, 1125, 375, 750, 62],
    ['a full discount leaves nothing to tax', 2, 999, 100, 19, 1998, 1998, 0, 0],
  ])('%s', (_name, quantity, unit_amount, discount_percent, tax_rate, gross, discount_amount, amount, tax) => {
    const t = doc([{ quantity, unit_amount, discount_percent, tax_rate }]);
    expect(t.lines[0]).toMatchObject({ gross, discount_amount, amount, tax });
    expectAddsUp(t);
  });

  it('keeps products beyond 2^53 exact', () => {
    // 999999.999 × 10000001 = 10000000989999.998999 in floats; exactly …9999.999 → 10000000990000.
    const t = doc([{ quantity: 999_999.999, unit_amount: 10_000_001, tax_rate: 0 }]);
    expect(t.lines[0]!.gross).toBe(10_000_000_990_000);
  });
});

describe('currencies: the arithmetic is in minor units whatever the exponent', () => {
  it('JPY (0 decimals): a 5 % discount over two rates', () => {
    const t = doc([{ quantity: 3, unit_amount: 333, tax_rate: 10 }, { quantity: 1, unit_amount: 500, tax_rate: 8 }], { discount: { percent: 5 } });
    expect(t).toMatchObject({ subtotal: 1499, discount_total: 75, tax: 133, total: 1557 });
    expect(t.tax_breakdown).toEqual([
      { category: 'S', rate: 10, taxable_amount: 949, tax_amount: 95, discount_amount: 50, exemption_reason: null, exemption_code: null },
      { category: 'S', rate: 8, taxable_amount: 475, tax_amount: 38, discount_amount: 25, exemption_reason: null, exemption_code: null },
    ]);
    expectAddsUp(t);
  });

  it('KWD (3 decimals): an amount discount on one group, in both modes', () => {
    const lines = [{ quantity: 2.5, unit_amount: 1234, tax_rate: 5 }];
    const line = doc(lines, { discount: { amount: 1000, reason: 'Loyalty' } });
    expect(line).toMatchObject({ subtotal: 3085, discount_total: 1000, tax: 104, total: 2189, discount: { amount: 1000, percent: null, reason: 'Loyalty' } });
    expect(line.lines[0]!.tax).toBe(154);
    const group = doc(lines, { discount: { amount: 1000 }, tax_rounding: 'group' });
    expect(group).toMatchObject({ tax: 104, total: 2189 });
    expect(group.lines[0]!.tax).toBeNull();
  });
});

describe('rounding modes', () => {
  it('the same 100-line invoice: each line rounded, or each group once', () => {
    const lines = Array.from({ length: 100 }, (_, i) => ({ quantity: 1, unit_amount: 5, tax_rate: i % 2 ? 10 : 30 }));
    const byLine = doc(lines);
    expect(byLine).toMatchObject({ subtotal: 500, tax: 50 * 1 + 50 * 2, total: 650 });
    expect(byLine.tax_breakdown.map((g) => [g.rate, g.taxable_amount, g.tax_amount])).toEqual([[30, 250, 100], [10, 250, 50]]);
    const byGroup = doc(lines, { tax_rounding: 'group' });
    // 250 × 30 % = 75 and 250 × 10 % = 25: 50 less than the lines' rounded halves add up to.
    expect(byGroup).toMatchObject({ subtotal: 500, tax: 100, total: 600, tax_rounding: 'group' });
    expect(byGroup.lines.every((l) => l.tax === null)).toBe(true);
    expectAddsUp(byLine);
    expectAddsUp(byGroup);
  });

  it('two half-unit lines: 1 + 1 by line, 1 by group', () => {
    const lines = [{ quantity: 1, unit_amount: 5, tax_rate: 10 }, { quantity: 1, unit_amount: 5, tax_rate: 10 }];
    expect(doc(lines).tax).toBe(2);
    expect(doc(lines, { tax_rounding: 'group' }).tax).toBe(1);
  });
});

describe('the document discount split over tax groups', () => {
  const twoGroups = (a: number, b: number) => [{ quantity: 1, unit_amount: a, tax_rate: 19 }, { quantity: 1, unit_amount: b, tax_rate: 7 }];

  it.each([
    // [name, nets, discount, parts, taxes by line mode, taxes by group mode]
    ['a discount larger than one group', twoGroups(100, 1000), 500, [45, 455], [10, 38], [10, 38]],
    ['a group whose share rounds to zero', twoGroups(10000, 1), 100, [100, 0], [1881, 0], [1881, 0]],
    ['a tie goes to the group whose first line comes first', twoGroups(100, 100), 1, [1, 0], [19 - 0, 7], [19, 7]],
    ['the same tie, the other group first', [...twoGroups(100, 100)].reverse(), 1, [1, 0], [7, 19], [7, 19]],
    ['the whole subtotal', twoGroups(100, 1000), 1100, [100, 1000], [0, 0], [0, 0]],
  ] as const)('%s', (_name, lines, amount, parts, lineTaxes, groupTaxes) => {
    for (const [mode, taxes] of [['line', lineTaxes], ['group', groupTaxes]] as const) {
      const t = doc([...lines], { discount: { amount }, tax_rounding: mode });
      expect(t.tax_breakdown.map((g) => g.discount_amount)).toEqual(parts);
      expect(t.tax_breakdown.map((g) => g.tax_amount)).toEqual(taxes);
      expectAddsUp(t);
    }
  });

  it('three equal groups share two units in the order of their first lines', () => {
    const lines = [7, 19, 7, 10].map((tax_rate) => ({ quantity: 1, unit_amount: 100, tax_rate }));
    // Groups: 7 % (lines 0 and 2, net 200), 19 % (100), 10 % (100): exact shares 1, 0.5, 0.5.
    const t = doc(lines, { discount: { amount: 2 } });
    expect(t.tax_breakdown.map((g) => [g.rate, g.discount_amount])).toEqual([[7, 1], [19, 1], [10, 0]]);
    expectAddsUp(t);
  });

  it('a percent discount is round(subtotal × percent / 100)', () => {
    expect(doc([{ quantity: 1, unit_amount: 999, tax_rate: 0 }], { discount: { percent: 12.5 } }).discount_total).toBe(125);
    expect(doc([{ quantity: 1, unit_amount: 999, tax_rate: 0 }], { discount: { percent: 100 } }).total).toBe(0);
  });

  it('a discount larger than the subtotal is a 422 on discount.amount', () => {
    expect(refusal(() => doc(twoGroups(100, 100), { discount: { amount: 201 } }))).toEqual(['discount.amount']);
  });

  it('no discount, or a null one, changes nothing', () => {
    const t = doc(twoGroups(100, 100), { discount: null });
    expect(t).toMatchObject({ discount: null, discount_total: 0, subtotal: 200, tax: 26, total: 226 });
  });
});

describe('tax categories', () => {
  const zero = { quantity: 1, unit_amount: 100, tax_rate: 0 };
  const taxed = { quantity: 1, unit_amount: 100, tax_rate: 19 };

  it.each([
    ['rate > 0 is S', [taxed], true, ['S']],
    ['rate 0 with a VAT id is Z', [zero], true, ['Z']],
    ['rate 0 without a VAT id and no taxed line is O', [zero, zero], false, ['O', 'O']],
    ['rate 0 beside a taxed line is Z, VAT id or not', [taxed, zero], false, ['S', 'Z']],
  ] as const)('%s', (_name, lines, issuer_has_vat_id, categories) => {
    const t = doc([...lines], { issuer_has_vat_id });
    expect(t.lines.map((l) => l.tax_category)).toEqual(categories);
  });

  it('defaults the reasons of AE, K, G and O, and keeps none on S and Z', () => {
    const t = doc([taxed, { ...zero, tax_category: 'Z' }, { ...zero, tax_category: 'AE' }, { ...zero, tax_category: 'K' }, { ...zero, tax_category: 'G' }]);
    expect(t.tax_breakdown.map((g) => [g.category, g.exemption_reason])).toEqual([
      ['S', null], ['Z', null], ['AE', 'Reverse charge'], ['K', 'Intra-community supply'], ['G', 'Export outside the EU'],
    ]);
    expect(doc([zero], { issuer_has_vat_id: false }).tax_breakdown[0]!.exemption_reason).toBe('Not subject to VAT');
  });

  it("the invoice's reason and code go to its E group, or to every exempt group when there is none", () => {
    const withE = doc([{ ...zero, tax_category: 'E' }, { ...zero, tax_category: 'AE' }], { tax_exemption_reason: 'Medical care', tax_exemption_code: 'VATEX-EU-132-1B' });
    expect(withE.tax_breakdown.map((g) => [g.category, g.exemption_reason, g.exemption_code])).toEqual([
      ['E', 'Medical care', 'VATEX-EU-132-1B'], ['AE', 'Reverse charge', null],
    ]);
    const onlyAE = doc([taxed, { ...zero, tax_category: 'AE' }], { tax_exemption_code: 'VATEX-EU-AE' });
    expect(onlyAE.tax_breakdown.map((g) => [g.category, g.exemption_reason, g.exemption_code])).toEqual([
      ['S', null, null], ['AE', 'Reverse charge', 'VATEX-EU-AE'],
    ]);
  });

  it.each([
    ['S with rate 0', [{ ...zero, tax_category: 'S' }], {}, ['line_items.0.tax_rate']],
    ['K with a rate', [{ ...taxed, tax_category: 'K' }], {}, ['line_items.0.tax_rate']],
    ['E without a reason', [taxed, { ...zero, tax_category: 'E' }], {}, ['tax_exemption_reason']],
    ['O beside another category', [taxed, { ...zero, tax_category: 'O' }], {}, ['line_items.1.tax_category']],
    ['every problem at once', [{ ...zero, tax_category: 'S' }, { ...taxed, tax_category: 'AE' }, { ...zero, tax_category: 'E' }], { discount: { amount: 10_000 } },
      ['line_items.0.tax_rate', 'line_items.1.tax_rate', 'tax_exemption_reason', 'discount.amount']],
  ] as const)('refuses %s (422 naming the field)', (_name, lines, more, paths) => {
    expect(refusal(() => doc(lines as unknown as DocumentLineInput[], more))).toEqual(paths);
  });

  it('E with only a code is enough', () => {
    expect(doc([{ ...zero, tax_category: 'E' }], { tax_exemption_code: 'VATEX-EU-132' }).tax_breakdown[0]!.exemption_reason).toBeNull();
  });
});

describe('a stored invoice reads back as the engine answered', () => {
  it.each(['line', 'group'] as const)('with tax_rounding %s', (taxRounding) => {
    const content = {
      line_items: [
        { description: 'Design', quantity: 1.5, unit: 'HUR' as const, unit_amount: 9_999, discount_percent: 12.5, tax_rate: 19 },
        { description: 'Course', quantity: 2, unit_amount: 333, tax_category: 'E' as const, tax_rate: 0 },
      ],
      discount: { percent: 7.5, reason: 'Early payment' },
      tax_exemption_reason: 'Education',
    };
    const built = buildLines('inv_test', content, { taxRounding, issuerHasVatId: true });
    expect(storedDocumentTotals({ ...built.columns, taxRounding }, built.rows)).toEqual(built.figures);
  });
});
