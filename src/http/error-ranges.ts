// The errors an operation gives for what kind of operation it is, not for what it does: a body
// that cannot be read (400, 413, 415), the key (401), a role above viewer (403), a keyed POST whose
// Idempotency-Key is still in flight or a state rule (409), and the rate limit (429). Listed on
// every operation one by one, they were some 700 references in /openapi.json; an operation lists
// them as one `4XX` entry instead, whose description names each status it can give, and keeps its
// own entries for the statuses particular to it (404, 410, 422, …). Operations that can give the
// same generic statuses share one response, named after that combination. 403 and 409 joined the
// range when the document had to make room: as entries of their own they were some 125 references
// (5.5 KB), and the keyed writes that give both share one range.
/** Statuses an operation gives for its kind alone (a body, a key, a limit), in the order they are listed. */
export const GENERIC_ERROR_STATUSES: readonly number[] = [400, 401, 403, 409, 413, 415, 429];

// The combinations that occur, by name; any other is named after its statuses.
const RANGE_NAMES: Record<string, string> = {
  '400,401,403,409,413,415,429': 'KeyedWrite',
  '400,401,403,413,415,429': 'KeyedWriteWithout409',
  '400,401,409,413,415,429': 'KeyedWriteWithout403',
  '401,429': 'KeyedRead',
  '401,403,429': 'KeyedReadWith403',
  '400,413,415,429': 'PublicWrite',
  '429': 'PublicRead',
};

/** The name of the shared `4XX` response for these statuses (`KeyedWrite`). */
export const errorRangeName = (statuses: readonly number[]) => RANGE_NAMES[statuses.join(',')] ?? `Errors${statuses.join('_')}`;

/** One line per status, `- 429: …`, in the range's description. */
export const errorRangeDescription = (statuses: readonly number[], describe: (status: number) => string) =>
  statuses.map((status) => `- ${status}: ${describe(status)}`).join('\n');

/** The statuses a range's description names. */
export const errorRangeStatuses = (description: string): number[] => [...description.matchAll(/^- (\d{3}):/gm)].map((match) => Number(match[1]));
