// GET /v1/reports/vat (§22), in the workspace's `default_currency`: output tax by category and rate
// from the tax breakdowns of the invoices issued and the credit notes (negative) issued in the
// period; input tax from the breakdowns of its expenses that have one (received documents, §21);
// and the EU sales list: per buyer VAT id in another EU country than the issuer's, the reverse-charge
// (`AE`, services) and intra-community (`K`, goods) amounts, which EC sales lists ask for.
// The taxable amounts and the taxes of each kind of document are summed per currency and day and
// converted once each (conversion.ts); each category, rate and buyer holds its share (shares.ts). So
// in the workspace's currency each figure is the sum of the documents' own breakdowns, and the
// output's taxable amounts add up to the accrual profit and loss's income.
import { type SQL, sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { EU_COUNTRY_CODES } from '../../lib/countries';
import { exactFigure } from '../../lib/money';
import { dayConverter } from './conversion';
import { daySumsQueries, exactSum, readDaySums } from './day-sums';
import type { Period } from './period';
import { countedIn } from './records';
import { convertedShares } from './shares';

const CATEGORY_ORDER = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'];
const EU_LISTED: Record<string, 'services' | 'goods'> = { AE: 'services', K: 'goods' };

/** A VAT id as a tax office writes it: upper case, no spaces, dots or dashes. */
const vatIdOf = (json: string) => sql`nullif(upper(replace(replace(replace(coalesce(json_extract(${sql.raw(json)}, '$.vat_id'), ''), ' ', ''), '.', ''), '-', '')), '')`;

function vatSums(ctx: WorkspaceContext, period: Period): SQL {
  const counted = countedIn(ctx.workspaceId, period);
  const entry = (field: string) => sql.raw(`json_extract(b.value, '$.${field}')`);
  // Who bought, for the EU sales list only: their VAT id and country (the id's prefix, else the
  // address's) and the issuer's country, as the invoice was sent.
  const buyer = sql`CASE WHEN ${entry('category')} IN ('AE', 'K') THEN ${vatIdOf('i.bill_to')} END AS buyer_vat_id,
    CASE WHEN ${entry('category')} IN ('AE', 'K') THEN coalesce(substr(${vatIdOf('i.bill_to')}, 1, 2), json_extract(i.bill_to, '$.address.country')) END AS buyer_country,
    CASE WHEN ${entry('category')} IN ('AE', 'K') THEN coalesce(json_extract(i.issuer, '$.address.country'), substr(${vatIdOf('i.issuer')}, 1, 2)) END AS issuer_country`;
  const parts = sql`${entry('category')} AS category, ${entry('rate')} AS rate`;
  const groups = sql`category, rate, buyer_vat_id, buyer_country, issuer_country`;
  return sql`SELECT 'invoice' AS kind, i.currency, i.issue_date AS day, ${parts}, ${buyer},
        sum(${entry('taxable_amount')}) AS taxable, sum(${entry('tax_amount')}) AS tax
      FROM invoices i, json_each(i.tax_breakdown) b WHERE ${counted.invoices('i')}
      GROUP BY i.issue_date, i.currency, ${groups}
    UNION ALL
    SELECT 'credit_note', c.currency, c.issue_date, ${parts}, ${buyer}, -sum(${entry('taxable_amount')}), -sum(${entry('tax_amount')})
      FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id, json_each(c.tax_breakdown) b WHERE ${counted.creditNotes('c')}
      GROUP BY c.issue_date, c.currency, ${groups}
    UNION ALL
    SELECT 'expense', e.currency, e.incurred_on, ${parts}, NULL, NULL, NULL, sum(${entry('taxable_amount')}), sum(${entry('tax_amount')})
      FROM expenses e, json_each(e.tax_breakdown) b WHERE ${counted.expenses('e')} AND e.tax_breakdown IS NOT NULL
      GROUP BY e.incurred_on, e.currency, category, rate`;
}

/** The report's one batch (its query plans are tested: test/reports/query-plans.test.ts). */
export const vatQueries = (ctx: WorkspaceContext, period: Period) =>
  daySumsQueries(
    ctx, undefined, () => vatSums(ctx, period),
    {
      kind: sql<string>`g.kind`, category: sql<string>`g.category`, rate: sql<number>`g.rate`,
      buyer_vat_id: sql<string | null>`g.buyer_vat_id`, buyer_country: sql<string | null>`g.buyer_country`, issuer_country: sql<string | null>`g.issuer_country`,
      taxable: exactSum('taxable'), tax: exactSum('tax'),
    },
    sql`g.kind, g.currency, g.day, g.category, g.rate, g.buyer_vat_id, g.buyer_country, g.issuer_country`,
  );

type Group = { category: string; rate: number; taxable: bigint; tax: bigint };

export async function vatReport(ctx: WorkspaceContext, period: Period) {
  const { currency, first, sums } = await readDaySums(ctx, undefined, vatQueries(ctx, period));
  const converter = await dayConverter(ctx.env, currency, sums, first);
  const unit = (s: (typeof sums)[number]) => `${s.kind}|${s.currency}|${s.day}`;
  const taxable = convertedShares(sums, unit, (s) => BigInt(s.taxable), (sum, s) => converter.convert(sum, s));
  const tax = convertedShares(sums, unit, (s) => BigInt(s.tax), (sum, s) => converter.convert(sum, s));

  const output = new Map<string, Group>();
  const input = new Map<string, Group>();
  const listed = new Map<string, { vat_id: string | null; country: string; services: bigint; goods: bigint }>();
  for (const s of sums) {
    const groups = s.kind === 'expense' ? input : output;
    const key = `${s.category}|${s.rate}`;
    const group = groups.get(key) ?? { category: s.category, rate: s.rate, taxable: 0n, tax: 0n };
    group.taxable += taxable.get(s)!;
    group.tax += tax.get(s)!;
    groups.set(key, group);
    const column = EU_LISTED[s.category];
    const country = s.buyer_country === 'EL' ? 'GR' : s.buyer_country;
    if (s.kind !== 'expense' && column && country && EU_COUNTRY_CODES.has(country) && country !== s.issuer_country) {
      const buyerKey = `${country}|${s.buyer_vat_id ?? ''}`;
      const buyer = listed.get(buyerKey) ?? { vat_id: s.buyer_vat_id, country, services: 0n, goods: 0n };
      buyer[column] += taxable.get(s)!;
      listed.set(buyerKey, buyer);
    }
  }

  const exact = (value: bigint, what: string) => exactFigure(value, 'from', what);
  const rowsOf = (groups: Map<string, Group>) =>
    [...groups.values()]
      .sort((a, b) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category) || b.rate - a.rate)
      .map((g) => ({ category: g.category, rate: g.rate, taxable_amount: exact(g.taxable, 'taxable_amount'), tax_amount: exact(g.tax, 'tax_amount') }));
  const taxOf = (groups: Map<string, Group>) => [...groups.values()].reduce((sum, g) => sum + g.tax, 0n);
  const [outputTax, inputTax] = [taxOf(output), taxOf(input)];
  return {
    currency,
    period,
    output: rowsOf(output),
    output_tax: exact(outputTax, 'output_tax'),
    input: rowsOf(input),
    input_tax: exact(inputTax, 'input_tax'),
    net_payable: exact(outputTax - inputTax, 'net_payable'),
    eu_sales_list: [...listed.values()]
      .sort((a, b) => a.country.localeCompare(b.country) || (a.vat_id ?? '').localeCompare(b.vat_id ?? ''))
      .map((b) => ({ vat_id: b.vat_id, country: b.country, services: exact(b.services, 'services'), goods: exact(b.goods, 'goods') })),
    rates_missing: converter.ratesMissing(),
  };
}
