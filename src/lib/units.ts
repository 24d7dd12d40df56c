// Units of measure a line may use: UN/ECE Recommendation 20 codes (with Rec. 21 `X…` package
// codes), which EN 16931 requires for BT-130. Only a common list is accepted, so every code we
// store is one an e-invoice validator knows; the default is C62, "one" (a piece, an item).
export const DEFAULT_UNIT = 'C62';

export const UNITS = {
  C62: 'one (piece, item)',
  E48: 'service unit',
  HUR: 'hour',
  MIN: 'minute',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  SET: 'set',
  PR: 'pair',
  XPP: 'piece (package)',
  KGM: 'kilogram',
  GRM: 'gram',
  TNE: 'tonne',
  MTR: 'metre',
  KMT: 'kilometre',
  CMT: 'centimetre',
  MTK: 'square metre',
  MTQ: 'cubic metre',
  LTR: 'litre',
  KWH: 'kilowatt hour',
  MWH: 'megawatt hour',
  E49: 'working day',
  LS: 'lump sum',
  ZZ: 'mutually defined',
} as const;

export type UnitCode = keyof typeof UNITS;
export const UNIT_CODES = Object.keys(UNITS) as [UnitCode, ...UnitCode[]];

/** The list as the OpenAPI text shows it: `HUR` hour, `DAY` day, … */
export const UNIT_LIST_TEXT = UNIT_CODES.map((code) => `\`${code}\` ${UNITS[code]}`).join(', ');
