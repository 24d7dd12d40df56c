// Settings checks that zod cannot make alone.

/** An IANA zone name Intl knows (Europe/Berlin, UTC). Offsets (+05:00) are refused even where the
 *  runtime accepts them: a zone follows daylight saving, an offset does not. */
export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** A well-formed BCP 47 language tag (en-US, de-DE, pt-BR). */
export function isBcp47Locale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}
