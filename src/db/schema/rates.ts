import { index, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// §22: the exchange rates of each UTC day, from the last snapshot published that day (the rates cron
// keeps them in every database that holds workspaces, beside the records a report converts). Units
// of `currency` per 1 USD, as the provider published them. One row per currency and day, so a report
// finds the rate of a date with one index seek rather than reading a whole day's rates.
export const exchangeRates = sqliteTable(
  'exchange_rates',
  {
    currency: text('currency').notNull(),
    /** The UTC day of the snapshot's `as_of`. */
    day: text('day').notNull(),
    rate: real('rate').notNull(),
    /** The snapshot's own publication time: a later snapshot of the same day replaces an earlier one. */
    asOf: text('as_of').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.currency, t.day] }),
    // "The nearest earlier day" is one seek that also reads the rate (migration 0033); the first day
    // kept, which dates before it take, one on the day.
    index('exchange_rates_lookup_idx').on(t.currency, t.day, t.rate),
    index('exchange_rates_day_idx').on(t.day),
  ],
);
