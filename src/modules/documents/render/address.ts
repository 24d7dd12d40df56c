// An address as printed (contract §20): laid out as the post of its country writes it, the country
// named in the document's language ("Frankreich", "France") rather than by its code.
import type { EInvoiceAddress } from '../value';

// Countries that write "city, region postal code" on one line (United States: "Springfield, IL 62704").
const CITY_REGION_POSTAL = new Set(['US', 'CA', 'AU', 'PR']);
// Countries that write the postal code on a line of its own after the city (United Kingdom).
const POSTAL_BELOW = new Set(['GB', 'IM', 'JE', 'GG']);

const names = new Map<string, Intl.DisplayNames | null>();

/** The country's name in `locale`, or its code when the runtime cannot name it. */
export function countryName(code: string, locale: string): string {
  let display = names.get(locale);
  if (display === undefined) {
    try {
      display = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
    } catch {
      display = null;
    }
    names.set(locale, display);
  }
  try {
    return display?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** The lines of an address that are filled in, in its country's order, the country last by name. */
export function addressLines(address: EInvoiceAddress, locale: string): string[] {
  const country = address.country?.toUpperCase() ?? null;
  const join = (...parts: (string | null)[]) => parts.filter(Boolean).join(' ');
  let place: (string | null)[];
  if (country && CITY_REGION_POSTAL.has(country)) {
    const regionPostal = join(address.region, address.postal_code);
    place = [[address.city, regionPostal].filter(Boolean).join(', ')];
  } else if (country && POSTAL_BELOW.has(country)) {
    place = [address.city, address.region, address.postal_code];
  } else {
    // Most of Europe and the rest of the world: postal code, then city; the region after.
    place = [join(address.postal_code, address.city), address.region];
  }
  return [address.line1, address.line2, ...place, country ? countryName(country, locale) : null].filter((part): part is string => Boolean(part));
}
