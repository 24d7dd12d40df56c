// GET /api/workflow/dashboard
import { invalidField } from '../../errors';
import { defineRoute, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { todayIn } from '../../lib/time';
import { Dashboard, DashboardQuery } from './schemas';
import { buildDashboard } from './service';

export const dashboardRoutes = createRouter().openapi(
  defineRoute({
    method: 'get', path: '/dashboard', operationId: 'getDashboard', tags: ['Dashboard'], access: 'user', role: 'viewer', errors: [503],
    summary: 'Totals, counts and recent activity',
    description: 'Figures for the period in `currency`, converted at the cached rates, each per-currency sum rounded half away from zero; `by_currency` keeps the original amounts. `outstanding` and `overdue` are what is due now, whatever the period. 503 `rates_unavailable` if a conversion is needed and no rates are cached; 422 on `currency` if it has no rate. A figure beyond 2^53 − 1 minor units (where a JSON number stops being exact) is a 422, never rounded: on `currency` for a converted total (a currency with a larger unit may carry it), on `from` for a sum in its own currency.',
    request: { query: DashboardQuery },
    responses: { 200: jsonContent(Dashboard, 'The dashboard.') },
  }),
  async (c) => {
    const query = c.req.valid('query');
    // The period ends on the workspace's today, the date its records are issued on.
    const today = todayIn(c.get('ctx').timeZone);
    const period = { from: query.from ?? `${today.slice(0, 4)}-01-01`, to: query.to ?? today };
    if (period.from > period.to) throw invalidField('from', '`from` must not be after `to`.');
    const dashboard = await buildDashboard(c.get('ctx'), period, query.currency);
    return c.json(dashboard, 200);
  },
);
