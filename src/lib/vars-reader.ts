// Reading a worker's string variables with the few rules a configuration needs: required or
// defaulted, whole numbers in a range, URLs, choices, comma lists, base64 keys. Every problem is
// collected, so one log line names every bad variable. Written out rather than as a zod schema:
// the configuration is checked on a cold worker's first request, before any route's schemas exist,
// and building a zod schema of two dozen fields was the largest part of that start.

/** How a variable that is not set reads: as `fallback`, or as missing (a problem, unless optional). */
type Unset = { fallback?: string; optional?: boolean };

export class VarsReader {
  readonly problems: string[] = [];

  constructor(private readonly vars: Record<string, unknown>) {}

  /** The text of `name`; undefined when it is not set and has no fallback (a problem unless optional), or is not text. */
  text(name: string, unset: Unset = {}): string | undefined {
    const value = this.vars[name] ?? unset.fallback;
    if (typeof value === 'string') return value;
    if (value !== undefined) this.problem(name, 'must be text');
    else if (!unset.optional) this.problem(name, 'is required');
    return undefined;
  }

  /** Text of at least `min` characters. */
  atLeast(name: string, min: number, message: string, unset: Unset = {}): string | undefined {
    const value = this.text(name, unset);
    if (value !== undefined && value.length < min) this.problem(name, message);
    return value;
  }

  /** A whole number written in decimal, within min..max. */
  integer(name: string, min: number, max: number, fallback?: number): number {
    const text = this.text(name, { fallback: fallback === undefined ? undefined : String(fallback) })?.trim();
    if (text === undefined) return 0;
    if (!/^\d+$/.test(text)) return this.problem(name, 'must be a whole number'), 0;
    const value = Number(text);
    if (value < min || value > max) this.problem(name, `must be from ${min} to ${max}`);
    return value;
  }

  /** An http or https URL; '' too when `emptyAllowed`. */
  url(name: string, options: { fallback?: string; emptyAllowed?: boolean } = {}): string {
    const value = this.text(name, options);
    if (value === undefined || (value === '' && options.emptyAllowed)) return value ?? '';
    if (!isHttpUrl(value)) this.problem(name, 'must be an http or https URL');
    return value;
  }

  /** One of `choices`. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const value = this.text(name, { fallback });
    if ((choices as readonly string[]).includes(value ?? '')) return value as T;
    if (value !== undefined) this.problem(name, `must be one of ${choices.join(', ')}`);
    return fallback;
  }

  /** A comma list, items trimmed, empty items dropped; each must match `item` when given. */
  list(name: string, fallback: string, item?: { pattern: RegExp; message: string }): string[] {
    const items = (this.text(name, { fallback }) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    if (item && !items.every((entry) => item.pattern.test(entry))) this.problem(name, item.message);
    return items;
  }

  /** 32 random bytes in standard base64. */
  key32(name: string, unset: Unset = {}): string | undefined {
    const value = this.text(name, unset);
    if (value !== undefined && !isBase64Of32Bytes(value)) this.problem(name, 'must be 32 random bytes in standard base64 (openssl rand -base64 32)');
    return value;
  }

  problem(name: string, message: string): void {
    this.problems.push(`${name} ${message}`);
  }
}

/** A URL's text without its trailing slashes, so paths can be appended to it. */
export const withoutTrailingSlashes = (url: string) => url.replace(/\/+$/, '');

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

function isBase64Of32Bytes(text: string): boolean {
  try {
    return atob(text).length === 32;
  } catch {
    return false;
  }
}
