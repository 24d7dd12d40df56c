// The billing rule of §19 as a table: 6- and 15-minute increments on the edges (1 s, 7 min 29 s,
// 7 min 30 s, 24 h) in each mode, and the SQL form agreeing with the JS one on every row.
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/lib/db';
import { amountFor, amountForSql, roundDuration, roundDurationSql, type RoundingMode } from '../../src/modules/time-entries/rounding';

const MIN = 60;
const DAY = 24 * 60 * MIN;

// [increment, mode, seconds, billed]
const TABLE: [6 | 15, RoundingMode, number, number][] = [
  [6, 'up', 1, 6 * MIN], [6, 'nearest', 1, 0], [6, 'down', 1, 0],
  [6, 'up', 7 * MIN + 29, 12 * MIN], [6, 'nearest', 7 * MIN + 29, 6 * MIN], [6, 'down', 7 * MIN + 29, 6 * MIN],
  [6, 'up', 7 * MIN + 30, 12 * MIN], [6, 'nearest', 7 * MIN + 30, 6 * MIN], [6, 'down', 7 * MIN + 30, 6 * MIN],
  [6, 'up', DAY, DAY], [6, 'nearest', DAY, DAY], [6, 'down', DAY, DAY],
  [15, 'up', 1, 15 * MIN], [15, 'nearest', 1, 0], [15, 'down', 1, 0],
  [15, 'up', 7 * MIN + 29, 15 * MIN], [15, 'nearest', 7 * MIN + 29, 0], [15, 'down', 7 * MIN + 29, 0],
  // Exactly halfway: nearest rounds up.
  [15, 'up', 7 * MIN + 30, 15 * MIN], [15, 'nearest', 7 * MIN + 30, 15 * MIN], [15, 'down', 7 * MIN + 30, 0],
  [15, 'up', DAY, DAY], [15, 'nearest', DAY, DAY], [15, 'down', DAY, DAY],
  // 6 minutes: halfway is 3 min past an increment.
  [6, 'nearest', 9 * MIN - 1, 6 * MIN], [6, 'nearest', 9 * MIN, 12 * MIN],
];

describe('time rounding', () => {
  it.each(TABLE)('%i min %s: %i s bills %i s', (increment, mode, seconds, billed) => {
    expect(roundDuration(seconds, { increment_minutes: increment, mode })).toBe(billed);
  });

  it('bills to the second without a rule', () => {
    for (const seconds of [1, 7 * MIN + 29, 7 * MIN + 30, DAY]) expect(roundDuration(seconds, null)).toBe(seconds);
  });

  it('rounds the same in SQL as in JS, on every row of the table', async () => {
    const db = createDb(env.DB);
    for (const [increment, mode, seconds, billed] of TABLE) {
      const row = await db.get<{ billed: number }>(sql`SELECT ${roundDurationSql(sql`${seconds}`, increment, mode)} AS billed`);
      expect(row.billed, `${increment} ${mode} ${seconds}`).toBe(billed);
    }
    const none = await db.get<{ billed: number }>(sql`SELECT ${roundDurationSql(sql`${7 * MIN + 29}`, null, null)} AS billed`);
    expect(none.billed).toBe(7 * MIN + 29);
  });

  it('prices billable seconds at an hourly rate, half away from zero, in SQL as in JS', async () => {
    const db = createDb(env.DB);
    // 1 s at 100.00/h is 2.78 cents → 3; 18 s at 100 cents/h is exactly 0.5 → 1; 17 s → 0.47 → 0.
    const cases: [number, number, number][] = [[1, 10_000, 3], [18, 100, 1], [17, 100, 0], [DAY, 10_000_000_000_000, 240_000_000_000_000], [5400, 12_345, 18_518]];
    for (const [seconds, rate, amount] of cases) {
      expect(amountFor(seconds, rate), `${seconds} s at ${rate}`).toBe(amount);
      const row = await db.get<{ amount: number }>(sql`SELECT ${amountForSql(sql`${seconds}`, rate)} AS amount`);
      expect(row.amount, `SQL: ${seconds} s at ${rate}`).toBe(amount);
    }
  });
});
