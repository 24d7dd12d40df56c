// How the cron works through what is due: in chunks, each after the last one's final row in a
// fixed order, up to a bound per run (the next run carries on). A candidate query may over-select
// (due somewhere on Earth, not yet in the record's own time zone); walking on past those, rather
// than asking again from the top, means they can never fill every chunk and starve what is due.

export const CRON_CHUNK = 200;

/** Calls `handle` for each candidate, at most `maxPerRun` of them. `find(after)` answers the next chunk. */
export async function inChunks<T>(find: (after: T | undefined) => Promise<T[]>, handle: (candidate: T) => Promise<void>, maxPerRun: number) {
  let after: T | undefined;
  for (let seen = 0; seen < maxPerRun; ) {
    const chunk = await find(after);
    for (const candidate of chunk) await handle(candidate);
    seen += chunk.length;
    if (chunk.length < CRON_CHUNK) return;
    after = chunk.at(-1);
  }
}
