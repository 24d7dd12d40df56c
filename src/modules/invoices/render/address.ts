// An address as printed, shared by the page and the PDF. Its own module, importing only types, so the
// renderer worker (src/renderer) takes it without the API code that builds the document.
import type { IssuerSnapshot } from '../serialize';

/** The lines of an address that are filled in, for printing. */
export function addressLines(address: IssuerSnapshot['address']): string[] {
  const cityLine = [address.postal_code, address.city, address.region].filter(Boolean).join(' ');
  return [address.line1, address.line2, cityLine, address.country].filter((part): part is string => Boolean(part));
}
