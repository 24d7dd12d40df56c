// The values workspace settings accept, as closed lists and patterns the document states, so that
// clients (and the fuzzer) see exactly what is valid.
import { z } from '@hono/zod-openapi';

/** The IANA zone names this runtime knows, and UTC. Offsets (+05:00) are not zones: a zone
 *  follows daylight saving, an offset does not. */
export const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')] as [string, ...string[]];

// A zone's name: letters first, then letters, digits and _ + - / (Etc/GMT+12). An offset (+05:00),
// which the runtime's Intl also takes, does not have this shape.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * Every name the runtime's Intl accepts, links included (US/Eastern, Etc/GMT+12, Asia/Calcutta):
 * supportedValuesOf lists only the canonical names, but a link names the same zone, and a client
 * (or an operating system) may well send one. Kept as sent.
 */
export function isTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const TIME_ZONE_TEXT = 'An IANA time zone name. The canonical names are listed; their links (US/Eastern, Etc/GMT+12, …) are accepted too, and kept as sent.';

/** A time zone in a request: documented by its canonical names, accepting their links too. */
export const timeZoneSchema = z
  .string()
  .refine(isTimeZone, { message: 'Use an IANA time zone name such as Europe/Berlin or UTC.' })
  .openapi({ enum: TIME_ZONES, description: TIME_ZONE_TEXT, example: 'Europe/Berlin' });

/** A BCP 47 tag of a language, an optional script and an optional region: en, en-US, zh-Hant-TW, es-419. */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$/;
