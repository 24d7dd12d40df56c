import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: gigs, transfers, the co-pilot and exports', (r) => /^\/v1\/(gigs|remit|ai|exports)/.test(r.path));
