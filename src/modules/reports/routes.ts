// The books (§22): reports a viewer may read, each from one D1 round trip.
import { defineRoute, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { reportPeriod } from './period';
import { profitAndLoss } from './profit-and-loss';
import * as S from './schemas';

const tags = ['Reports'];

export const reportRoutes = createRouter().openapi(
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
);
