// The labels of a document's legal mentions (contract §20), kept with every other label in each
// language's file (en.ts, de.ts, …) as their `legal` group: the parties' numbers under their own names
// (a VAT number is never printed as a tax number, nor the reverse), the date or period of supply, the
// payment account and reference, the tax breakdown.
import { type Labels, labelsFor } from './language';

export type LegalLabels = Labels['legal'];

/** The legal mentions' labels in the language of `locale`. */
export const legalLabelsIn = (locale: string): LegalLabels => labelsFor(locale).legal;
