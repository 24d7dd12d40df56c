import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: access, health, rates and the dashboard', (r) => !r.path.startsWith('/v1') && !/\/(clients|projects|invoices|expenses)/.test(r.path));
