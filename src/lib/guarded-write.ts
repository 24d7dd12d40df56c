// Updates that must describe themselves exactly in an event: read the record, compute what it
// becomes, and write it guarded on the `updated_at` that was read, in one batch with the event
// (`recordEvent(…, { ifChanged: true })`). If another request changed the record in between, the
// guard matches no row, nothing is written, and the whole read-compute-write runs again.
import { ApiError } from '../errors';

const ATTEMPTS = 3;

/** Rows the statement changed, from a D1 result in a batch's results. */
export const changedRows = (result: unknown): number => (result as { meta: { changes: number } }).meta.changes;

/** Runs `attempt` until it returns a value (not undefined); undefined means "lost a race, again". */
export async function retryOnRace<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw new ApiError('conflict', `The ${what} was changed by another request at the same time; try again.`);
}
