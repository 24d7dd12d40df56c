import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: clients, projects and invoices under /v1', (r) => /^\/v1\/(clients|projects|invoices)/.test(r.path));
