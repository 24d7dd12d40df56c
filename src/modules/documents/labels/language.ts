// The languages documents speak (§10), and how a label table is written and read. A table gives
// each label in every language, so a missing translation is a type error, not a blank on a page;
// a label is a word or a sentence built from its parts. A document is read in the language of its
// locale (`de-DE` → German), and in English when the locale's language is not one of these.
// Each kind of document keeps its own table beside the shared one (common.ts, invoice.ts; quotes
// and credit notes add theirs), and picks what it needs with `labelsIn`.

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

type Label = string | ((...parts: any[]) => string);

/** Labels by name, each in every language, every language's version of one label of the same shape. */
export type LabelTable<T extends Record<string, Label>> = { [K in keyof T]: Record<Language, T[K]> };

/**
 * A table as written: `defineLabels({ total: { en: 'Total', de: 'Gesamt', … } })`. English sets
 * each label's shape (a word, or a sentence's parameters); every other language must match it.
 */
export const defineLabels = <T extends Record<string, Label>>(
  table: { [K in keyof T]: { en: T[K] } & Record<Exclude<Language, 'en'>, NoInfer<Shape<T[K]>>> },
): LabelTable<{ [K in keyof T]: Shape<T[K]> }> => table as LabelTable<{ [K in keyof T]: Shape<T[K]> }>;

/** What a label is, whatever its English words: any text, or a sentence of the same parts. */
type Shape<L extends Label> = L extends string ? string : L;

/** The language a document in `locale` is written in: its own if supported, else English. */
export function languageOf(locale: string): Language {
  let language: string;
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    return 'en';
  }
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';
}

/** Every label of `table` in `language`. */
export function labelsIn<T extends Record<string, Label>>(table: LabelTable<T>, language: Language): T {
  const labels = {} as T;
  for (const name of Object.keys(table) as (keyof T)[]) labels[name] = table[name][language];
  return labels;
}
