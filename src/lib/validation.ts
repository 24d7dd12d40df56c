// The one validator hook: every failed zod check becomes our 422 envelope, naming each path.
// A malformed id in a path is a 404, as if the record did not exist (contract §1).
import type { z } from '@hono/zod-openapi';
import { ApiError, type ErrorDetail, invalidField, notFound } from '../errors';
import { loneSurrogatePath } from './lone-surrogates';

type Issue = z.core.$ZodIssue;

/** What the request held at `path`, if anything. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/**
 * Whether an issue of one union option, about `value`, says the value is not of that option's shape
 * at all: not an object, a key the option does not have, a key it needs missing, another literal.
 */
function misfit(issue: Issue, value: unknown): boolean {
  if (issue.path.length === 0) return issue.code === 'unrecognized_keys' || issue.code === 'invalid_type' || issue.code === 'invalid_union';
  if (issue.path.length > 1) return false;
  return issue.code === 'invalid_value' || valueAt(value, issue.path) === undefined;
}

function issueDetails(issue: Issue, input: unknown): ErrorDetail[] {
  const base = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: base ? `${base}.${key}` : key, message: 'Unknown field.' }));
  }
  if (issue.code === 'invalid_union') {
    // A value of one option's shape with a bad field: that field's own problem says more than the
    // shapes. Of no option's shape: the union's message names them all (lib/schemas.ts, oneOf; §3).
    const value = valueAt(input, issue.path);
    const fitting = issue.errors.filter((issues) => !issues.some((inner) => misfit(inner, value)));
    if (fitting.length === 1) return fitting[0]!.flatMap((inner) => issueDetails({ ...inner, path: [...issue.path, ...inner.path] } as Issue, input));
  }
  return [{ path: base, message: issue.message }];
}

/** A 422 with one detail per failing path (the first problem found there); `input` is what was sent. */
export function validationError(error: z.ZodError, input?: unknown): ApiError {
  const byPath = new Map<string, ErrorDetail>();
  for (const detail of error.issues.flatMap((issue) => issueDetails(issue, input))) if (!byPath.has(detail.path)) byPath.set(detail.path, detail);
  return new ApiError('validation_failed', 'The request is not valid.', [...byPath.values()]);
}

// On a failure, `data` is what was sent (the validator spreads the input under the result).
type HookResult = { success: true; data: unknown; target: string } | { success: false; error: z.ZodError; data?: unknown; target: string };

export function throwOnInvalid(result: HookResult): void {
  if (result.success) {
    // Checked here, after the path and query validators, so a malformed id stays a 404 whatever
    // the body holds; and on what the schema kept, since an unknown field is dropped, not stored.
    const corrupt = result.target === 'json' ? loneSurrogatePath(result.data) : null;
    if (corrupt !== null) throw invalidField(corrupt || 'body', 'Contains a lone surrogate (\\uD800–\\uDFFF without its pair): not a character, and it cannot be stored.');
    return;
  }
  if (result.target === 'param') throw notFound();
  throw validationError(result.error, result.data);
}

/** A range filter (§1): its start after its end is a 422 naming the start, never an empty page. */
export function assertOrderedRange(fromField: string, from: string | undefined, toField: string, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from > to) throw invalidField(fromField, `\`${fromField}\` must not be after \`${toField}\`.`);
}
