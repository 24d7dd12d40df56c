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
      description: '`accrual`: net of invoices issued less credit notes; `cash`: net share of payments less refunds; expenses net of input tax. Each currency\'s day sum is converted at that day\'s rate.',
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
      description: 'What each invoice owed at the end of `as_of`, by days past due; later payments, refunds, credit notes and voids do not count.',
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
      description: 'Output and input tax by category and rate, and the EU sales list (`AE`, `K`), in `default_currency`.',
      request: { query: S.VatQuery },
      responses: { 200: jsonContent(S.VatReport, 'The report.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(await vatReport(c.get('ctx'), reportPeriod(query.from, query.to)), 200);
    },
  );
