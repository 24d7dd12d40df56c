import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: clients, projects, invoices and credit notes under /v1', (r) => /^\/v1\/(clients|projects|invoices|credit-notes)/.test(r.path));
