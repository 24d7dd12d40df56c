// Keyset pagination. Lists are newest first by id (ULIDs sort by creation time), and the cursor is
// the last id of the page, base64url-wrapped so clients treat it as opaque. The next page is
// `id < cursor` over an index that starts with the owner: its cost does not grow with depth.
import { invalidField } from '../errors';
import { type IdKind, isId } from './ids';

export type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

export function encodeCursor(id: string): string {
  return btoa(JSON.stringify({ id })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The id a cursor stands for; a cursor that is not one of ours for this list is a 422 on `cursor`. */
export function decodeCursor(cursor: string | undefined, kind: IdKind): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const json = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const { id } = JSON.parse(json) as { id?: unknown };
    if (typeof id === 'string' && isId(kind, id)) return id;
  } catch {
    // falls through to the 422 below
  }
  throw invalidField('cursor', 'Invalid cursor: pass next_cursor from a previous page unchanged.');
}

/** `rows` was fetched with limit + 1 so that the extra row tells whether another page exists. */
export function toPage<Row extends { id: string }, T>(rows: Row[], limit: number, serialize: (row: Row) => T): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(serialize),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(last.id) : null,
  };
}
