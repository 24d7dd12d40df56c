// The labels of a quote's page, PDF and email (§18): the ones every document shares, the invoice's
// (whose document shape a quote is printed with) and the quote's own, in the language of a locale.
import { labelsFor } from './language';

export type QuoteLabels = ReturnType<typeof quoteLabels>;

/** Everything a quote says, in the language of `locale` (with the invoice's, which its document shape shares). */
export const quoteLabels = (locale: string) => {
  const labels = labelsFor(locale);
  return { ...labels.common, ...labels.invoice, ...labels.quote };
};
