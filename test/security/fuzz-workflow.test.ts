import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: clients, projects, invoices and expenses', (r) => /\/(clients|projects|invoices|expenses)/.test(r.path) && r.path.startsWith('/api'));
