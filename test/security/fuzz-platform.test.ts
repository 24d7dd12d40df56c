import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: gigs and their proposals, transfers, the co-pilot and exports', (r) => /^\/v1\/(gigs|proposals|remit|ai|exports)/.test(r.path));
