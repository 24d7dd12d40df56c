import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: gigs, transfers and the co-pilot', (r) => /^\/v1\/(gigs|remit|ai)/.test(r.path));
