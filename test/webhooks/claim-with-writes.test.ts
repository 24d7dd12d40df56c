// The claim a write's batches carry (from its first event on) is written out as SQL (so a cold worker builds no tables
// for it); it must stay the statement the dispatcher builds with drizzle.
import { env } from 'cloudflare:workers';
import { fillPlaceholders, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/lib/db';
import { CLAIM_DUE_DELIVERIES_SQL, claimValues } from '../../src/modules/webhooks/claim-with-writes';
import { claimDueDeliveries } from '../../src/modules/webhooks/dispatch';

describe('the claim carried by a write\'s batches', () => {
  it('is the statement claimDueDeliveries builds, with the same values', () => {
    const at = '2026-11-27T12:00:00.000Z';
    const built = claimDueDeliveries(createDb(env.DB), sql`${sql.placeholder('at')}`).toSQL();
    expect(CLAIM_DUE_DELIVERIES_SQL).toBe(built.sql);
    expect(claimValues(at)).toEqual(fillPlaceholders(built.params, { at }));
  });
});
