// What queue messages about a record on a database other than DB carry in `database`.
import { z } from 'zod';
import { BINDING_NAME } from './database-env';

/** A binding name as wrangler.toml spells it. */
export const DatabaseName = z.string().regex(BINDING_NAME);
