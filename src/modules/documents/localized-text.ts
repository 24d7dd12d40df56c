// A text a person writes once per language (contract §20: the issuer's `legal_notes`, the workspace's
// `payment_instructions`): one text, or an object of texts by language (`{"fr": "…", "de": "…"}`). A
// document prints the one in its language, else the English one, else the first.
import { type Language, languageOf } from './labels/language';

export type LocalizedText = string | Record<string, string>;

export function chooseText(text: LocalizedText | null | undefined, locale: string): string | null {
  if (text === null || text === undefined) return null;
  if (typeof text === 'string') return text || null;
  const language: Language = languageOf(locale);
  const byLanguage = new Map(Object.entries(text).map(([key, value]) => [key.toLowerCase(), value]));
  return byLanguage.get(locale.toLowerCase()) ?? byLanguage.get(language) ?? byLanguage.get('en') ?? Object.values(text)[0] ?? null;
}

/**
 * A text column that holds either form: plain text as before, or the object as JSON. A plain text that
 * happens to look like a JSON object of strings is read as one; nothing a person types by hand does.
 */
export function readLocalizedText(stored: string | null | undefined): LocalizedText | null {
  if (!stored) return null;
  if (!stored.startsWith('{')) return stored;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.values(parsed).every((v) => typeof v === 'string')) {
      return parsed as Record<string, string>;
    }
  } catch {
    // Plain text that starts with a brace.
  }
  return stored;
}

export const storeLocalizedText = (text: LocalizedText | null | undefined): string | null =>
  text === null || text === undefined ? null : typeof text === 'string' ? text : JSON.stringify(text);
