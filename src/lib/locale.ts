// Locales (BCP 47 tags) as documents use them (§20): a client's, a document's. One is accepted when
// the runtime's Intl both reads it and has data for it, so every locale stored formats its dates and
// numbers as it says (an unknown language such as `xx` would silently print in the runtime's default).
import { z } from '@hono/zod-openapi';

/** The locale in its canonical spelling (`de-de` → `de-DE`), or undefined when Intl cannot use it. */
export function canonicalLocale(value: string): string | undefined {
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(value);
  } catch {
    return undefined;
  }
  if (!canonical) return undefined;
  const known = Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0 && Intl.NumberFormat.supportedLocalesOf(canonical).length > 0;
  return known ? canonical : undefined;
}

// Request bodies are written out in place in /openapi.json: what a locale means is said once, on
// the records (`DocumentLocale`), not on every field that takes one.
export const localeSchema = z
  .string()
  .refine((value) => canonicalLocale(value) !== undefined, 'Use a BCP 47 locale the runtime knows, such as en-US, de-DE or fr-FR.')
  .transform((value) => canonicalLocale(value)!);
