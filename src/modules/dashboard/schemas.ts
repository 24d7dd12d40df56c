import { z } from '@hono/zod-openapi';
import { ActorSchema } from '../events/schemas';
import { currencySchema, dateSchema, timestampSchema } from '../../lib/schemas';

export const DashboardQuery = z.object({
  from: dateSchema.optional().openapi({ description: 'Start of the period (inclusive). Defaults to 1 January of this year in the workspace time zone.' }),
  to: dateSchema.optional().openapi({ description: 'End of the period (inclusive). Defaults to today in the workspace time zone.' }),
  currency: currencySchema.default('USD').openapi({ description: 'Currency of `totals`. Defaults to USD.' }),
});

const money = (description: string) => z.number().int().openapi({ description });

export const Dashboard = z
  .object({
    currency: z.string(),
    period: z.object({ from: z.string(), to: z.string() }),
    totals: z.object({
      invoiced: money('Totals of open and paid invoices issued in the period.'),
      collected: money('Payments dated in the period.'),
      tax_collected: money('The tax share of `collected`: each payment split between net and tax in its invoice\'s proportion (payment × invoice tax / invoice total, half away from zero).'),
      outstanding: money('Amount due now on open invoices.'),
      overdue: money('Amount due now on open invoices past their due date.'),
      expenses: money('Expenses incurred in the period.'),
      input_tax: money('The `tax_amount` of those expenses: input tax, reclaimable.'),
      profit: money('collected − tax_collected − (expenses − input_tax): tax is owed to or reclaimed from the state.'),
    }),
    counts: z.object({
      clients: z.number().int(),
      active_projects: z.number().int(),
      invoices: z.object({ draft: z.number().int(), open: z.number().int(), paid: z.number().int(), void: z.number().int(), overdue: z.number().int() }),
    }),
    by_currency: z.array(
      z.object({
        currency: z.string(),
        invoiced: z.number().int(),
        collected: z.number().int(),
        outstanding: z.number().int(),
        expenses: z.number().int(),
        converted: z.boolean().openapi({ description: 'False when the current rates have no rate for this currency: its amounts are left out of `totals`.' }),
      }),
    ),
    rates: z
      .object({
        as_of: timestampSchema.nullable(),
        stale: z.boolean(),
        missing: z.array(z.string()).openapi({ description: 'Stored currencies the current rates do not contain (left out of `totals`); `[]` when none.' }),
      })
      .openapi({ description: 'The cached rates conversions use; `as_of` is null only when none are cached and none were needed.' }),
    activity: z
      .array(z.object({ id: z.string(), type: z.string(), subject_id: z.string(), summary: z.string(), occurred_at: timestampSchema, actor: ActorSchema }))
      .openapi({ description: 'The latest 20 events of the workspace (GET /api/events), with who did each.' }),
  })
  .openapi('Dashboard');

export type DashboardFilter = z.infer<typeof DashboardQuery>;
