// The labels of an invoice's page, PDF and emails (and a credit note's, which shares its layout):
// the ones every document shares and the invoice's own, in the language of a locale.
import { labelsFor } from './language';

export type InvoiceLabels = ReturnType<typeof invoiceLabels>;

/** Everything an invoice says, in the language of `locale`. */
export const invoiceLabels = (locale: string) => {
  const labels = labelsFor(locale);
  return { ...labels.common, ...labels.invoice };
};
