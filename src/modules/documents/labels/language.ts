// The languages documents speak (§10, §20), and which one a locale reads in. Each language keeps
// every label of every kind of document in its own file (en.ts, de.ts, …), so a translator edits
// one file; en.ts sets the shape the others must match. A document is read in the language of its
// locale (`de-DE` → German), and in English when the locale's language is not one of these (its
// numbers and dates still follow the locale: that is Intl's part, not the labels').
import { de } from './de';
import { en, type Labels } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { nl } from './nl';
import { pt } from './pt';

export type { Labels } from './en';

const BY_LANGUAGE = { en, de, fr, es, it, nl, pt } satisfies Record<string, Labels>;

export type Language = keyof typeof BY_LANGUAGE;
export const LANGUAGES = Object.keys(BY_LANGUAGE) as Language[];

/** The language a document in `locale` is written in: its own if supported, else English. */
export function languageOf(locale: string): Language {
  let language: string;
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    return 'en';
  }
  return Object.hasOwn(BY_LANGUAGE, language) ? (language as Language) : 'en';
}

/** Every label, by group, in the language of `locale`. */
export const labelsFor = (locale: string): Labels => BY_LANGUAGE[languageOf(locale)];
