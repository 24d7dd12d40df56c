// The one validator hook: every failed zod check becomes our 422 envelope, naming each path.
// A malformed id in a path is a 404, as if the record did not exist (contract §1).
import type { z } from '@hono/zod-openapi';
import { ApiError, type ErrorDetail, invalidField, notFound } from '../errors';
import { loneSurrogatePath } from './lone-surrogates';

type Issue = z.core.$ZodIssue;

function issueDetails(issue: Issue): ErrorDetail[] {
  const base = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: base ? `${base}.${key}` : key, message: 'Unknown field.' }));
  }
  return [{ path: base, message: issue.message }];
}

/** A 422 with one detail per failing path (the first problem found there). */
export function validationError(error: z.ZodError): ApiError {
  const byPath = new Map<string, ErrorDetail>();
  for (const detail of error.issues.flatMap(issueDetails)) if (!byPath.has(detail.path)) byPath.set(detail.path, detail);
  return new ApiError('validation_failed', 'The request is not valid.', [...byPath.values()]);
}

type HookResult = { success: true; data: unknown; target: string } | { success: false; error: z.ZodError; target: string };

export function throwOnInvalid(result: HookResult): void {
  if (result.success) {
    // Checked here, after the path and query validators, so a malformed id stays a 404 whatever
    // the body holds; and on what the schema kept, since an unknown field is dropped, not stored.
    const corrupt = result.target === 'json' ? loneSurrogatePath(result.data) : null;
    if (corrupt !== null) throw invalidField(corrupt || 'body', 'Contains a lone surrogate (\\uD800–\\uDFFF without its pair): not a character, and it cannot be stored.');
    return;
  }
  if (result.target === 'param') throw notFound();
  throw validationError(result.error);
}

/** A range filter (§1): its start after its end is a 422 naming the start, never an empty page. */
export function assertOrderedRange(fromField: string, from: string | undefined, toField: string, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from > to) throw invalidField(fromField, `\`${fromField}\` must not be after \`${toField}\`.`);
}
