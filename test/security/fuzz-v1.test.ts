import { fuzzRoutes } from '../helpers/fuzz';

fuzzRoutes('generated input: the /v1 listing', (r) => r.path.startsWith('/v1'));
