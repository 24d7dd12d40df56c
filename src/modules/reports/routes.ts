// The books (§22): reports a viewer may read, each from one D1 round trip.
import { defineRoute, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { todayIn } from '../../lib/time';
import { agedReceivables } from './aged-receivables';
import { reportPeriod } from './period';
import { profitAndLoss } from './profit-and-loss';
import * as S from './schemas';
import { vatReport } from './vat';

const tags = ['Reports'];

export const reportRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/reports/profit-and-loss', operationId: 'getProfitAndLoss', tags, access: 'user', role: 'viewer', errors: [503],
      summary: 'Profit and loss',
      description: '`accrual`: invoices issued (net) less credit notes, and expenses (net of input tax). `cash`: the net share of payments less refunds, and expenses. Each record is converted at the rate of its own date, each currency\'s day sum rounded half away from zero. Void invoices count nowhere.',
      request: { query: S.ProfitAndLossQuery },
      responses: { 200: jsonContent(S.ProfitAndLoss, 'The report.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const report = await profitAndLoss(c.get('ctx'), { ...query, ...reportPeriod(query.from, query.to) });
      return c.json(report, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/reports/aged-receivables', operationId: 'getAgedReceivables', tags, access: 'user', role: 'viewer', errors: [503],
      summary: 'Aged receivables',
      description: 'What each invoice still owed at the end of `as_of`, per client, by days past its due date: payments, refunds and credit notes dated later, and voids later that day, do not count. Each invoice at its issue date\'s rate.',
      request: { query: S.AgedReceivablesQuery },
      responses: { 200: jsonContent(S.AgedReceivables, 'The report.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const query = c.req.valid('query');
      return c.json(await agedReceivables(ctx, { ...query, as_of: query.as_of ?? todayIn(ctx.timeZone) }), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/reports/vat', operationId: 'getVatReport', tags, access: 'user', role: 'viewer', errors: [503],
      summary: 'VAT and the EU sales list',
      description: 'Output tax by category and rate from the invoices and credit notes issued in the period, input tax from expenses with a `tax_breakdown`, and the EU sales list, in `default_currency`. Each document at its issue date\'s rate.',
      request: { query: S.VatQuery },
      responses: { 200: jsonContent(S.VatReport, 'The report.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(await vatReport(c.get('ctx'), reportPeriod(query.from, query.to)), 200);
    },
  );
