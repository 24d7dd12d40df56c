// Text that is not text, found in a body the validator let through.
// In Unicode mode, a surrogate that is half of a pair is part of one code point; only a lone one
// is in the category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The path (`line_items.0.description`) of a string, or key, holding a lone surrogate; null when
 * there is none. UTF-8 cannot carry one, but a JSON escape (`"\\ud800"`) can, and D1 would store
 * it as U+FFFD: the text would silently not be what was sent, in any field. Walked with a stack of
 * its own, since a 100 KB body can nest deeper than the call stack goes.
 */
export function loneSurrogatePath(body: unknown): string | null {
  const pending: [unknown, string][] = [[body, '']];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (pending.length) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], at(path, i)]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        if (LONE_SURROGATE.test(key)) return at(path, key.replace(/\p{Cs}/gu, '\uFFFD'));
      }
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i]![1], at(path, entries[i]![0])]);
    }
  }
  return null;
}
