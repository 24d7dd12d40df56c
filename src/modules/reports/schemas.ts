import { z } from '@hono/zod-openapi';
import { currencySchema, dateSchema } from '../../lib/schemas';
import { MAX_REPORT_DAYS } from './period';

const money = () => z.number().int();
const day = z.string().openapi({ format: 'date' });

const period = {
  from: dateSchema.openapi({ description: 'First day, included.', example: '2026-01-01' }),
  to: dateSchema.openapi({ description: `Last day, included; at most ${MAX_REPORT_DAYS} days after \`from\`.`, example: '2026-03-31' }),
};
const currency = currencySchema.optional().openapi({ description: 'Default: `default_currency`.', example: 'EUR' });
// Named once, referred to by every report.
const ReportPeriod = z.object({ from: day, to: day }).openapi('ReportPeriod');
const RatesMissing = z.array(day).openapi('RatesMissing', { description: 'Dates with no rate kept on or before them (the first kept was used).' });

export const ProfitAndLossQuery = z.object({
  ...period,
  currency,
  basis: z.enum(['accrual', 'cash']).default('accrual'),
  group_by: z.enum(['month', 'quarter', 'project']).default('month'),
});

const PnlFigures = z
  .object({
    income: money(),
    expenses: money(),
    fx_gain_loss: money().openapi({ description: 'Realized exchange differences.' }),
    profit: money().openapi({ description: 'income − expenses (+ fx_gain_loss in `accrual`).' }),
  })
  .openapi('PnlFigures');

export const ProfitAndLoss = z
  .object({
    currency: z.string(),
    basis: z.enum(['accrual', 'cash']),
    group_by: z.enum(['month', 'quarter', 'project']),
    period: ReportPeriod,
    rows: z.array(z.object({ key: z.string().nullable().openapi({ description: '`2026-03`, `2026-Q1` or a project id (null: none).' }) }).and(PnlFigures)),
    totals: PnlFigures,
    rates_missing: RatesMissing,
  })
  .openapi('ProfitAndLoss');

export const AgedReceivablesQuery = z.object({
  as_of: dateSchema.optional().openapi({ description: 'Default: today.', example: '2026-03-31' }),
  currency,
});

const Aged = z
  .object({ current: money().openapi({ description: 'Not yet past due.' }), d1_30: money(), d31_60: money(), d61_90: money(), over_90: money(), total: money() })
  .openapi('AgedFigures');

export const AgedReceivables = z
  .object({
    currency: z.string(),
    as_of: day,
    rows: z.array(z.object({ client_id: z.string(), name: z.string() }).and(Aged)),
    totals: Aged,
    rates_missing: RatesMissing,
  })
  .openapi('AgedReceivables');

export const VatQuery = z.object(period);

const TaxGroup = z.object({ category: z.string(), rate: z.number(), taxable_amount: money(), tax_amount: money() }).openapi('TaxGroup');

export const VatReport = z
  .object({
    currency: z.string(),
    period: ReportPeriod,
    output: z.array(TaxGroup).openapi({ description: 'Invoices less credit notes.' }),
    output_tax: money(),
    input: z.array(TaxGroup).openapi({ description: 'Expenses with a `tax_breakdown`.' }),
    input_tax: money(),
    net_payable: money(),
    eu_sales_list: z
      .array(z.object({ vat_id: z.string().nullable(), country: z.string(), services: money().openapi({ description: '`AE`' }), goods: money().openapi({ description: '`K`' }) }))
      .openapi({ description: 'Per buyer in another EU country.' }),
    rates_missing: RatesMissing,
  })
  .openapi('VatReport');

