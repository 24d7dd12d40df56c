import { fuzzRoutes } from '../helpers/fuzz/run';

fuzzRoutes('generated input: gigs and their proposals, transfers and the co-pilot', (r) => /^\/v1\/(gigs|proposals|remit|ai)/.test(r.path));
