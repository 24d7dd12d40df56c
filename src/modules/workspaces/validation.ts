// The values workspace settings accept, as closed lists and patterns the document states, so that
// clients (and the fuzzer) see exactly what is valid.

/** The IANA zone names this runtime knows, and UTC. Offsets (+05:00) are not zones: a zone
 *  follows daylight saving, an offset does not. */
export const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')] as [string, ...string[]];

/** A BCP 47 tag of a language, an optional script and an optional region: en, en-US, zh-Hant-TW, es-419. */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$/;
