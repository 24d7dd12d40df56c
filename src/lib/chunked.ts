// How the cron works through what is due: in chunks, each after the last one's final row in a
// fixed order, up to a bound per run (the next run carries on). A candidate query may over-select
// (due somewhere on Earth, not yet in the record's own time zone); walking on past those, rather
// than asking again from the top, means they can never fill every chunk and starve what is due.
// Under a query budget (lib/query-budget.ts) the walk also stops while enough of it is left for one
// more record's work.
import type { QueryBudget } from './query-budget';

export const CRON_CHUNK = 200;

/** The most D1 queries one record's work takes (an auto-sent recurring invoice: its issue, then its send). */
const QUERIES_PER_RECORD = 8;

/** Whether too little of the budget is left for one more record's work. */
export const budgetSpent = (budget: QueryBudget | undefined): boolean => budget !== undefined && budget.left < QUERIES_PER_RECORD;

/** Calls `handle` for each candidate, at most `maxPerRun` of them. `find(after)` answers the next chunk. */
export async function inChunks<T>(
  find: (after: T | undefined) => Promise<T[]>,
  handle: (candidate: T) => Promise<void>,
  maxPerRun: number,
  budget?: QueryBudget,
) {
  const spent = () => budgetSpent(budget);
  let after: T | undefined;
  for (let seen = 0; seen < maxPerRun && !spent(); ) {
    const chunk = await find(after);
    for (const candidate of chunk) {
      if (spent()) return;
      await handle(candidate);
    }
    seen += chunk.length;
    if (chunk.length < CRON_CHUNK) return;
    after = chunk.at(-1);
  }
}
