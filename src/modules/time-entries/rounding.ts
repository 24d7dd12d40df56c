// How a time entry is billed (§19): its duration rounded per entry to the project's increment, and
// the money that stands for. Pure integer arithmetic, the same rule in JS (one entry) and in SQL
// (sums over many), so a summary adds up to the entries it sums.
import { type SQL, sql } from 'drizzle-orm';
import { divRoundHalfAwayFromZero } from '../../lib/money';

export const ROUNDING_INCREMENTS = [1, 5, 6, 10, 15, 30, 60] as const;
export const ROUNDING_MODES = ['up', 'nearest', 'down'] as const;

export type RoundingMode = (typeof ROUNDING_MODES)[number];
export type RoundingIncrement = (typeof ROUNDING_INCREMENTS)[number];
export type TimeRounding = { increment_minutes: RoundingIncrement; mode: RoundingMode } | null;

/** A project's rule, from its two columns (both null: to the second). */
export const projectRounding = (row: { timeRoundingMinutes: number | null; timeRoundingMode: RoundingMode | null }): TimeRounding =>
  row.timeRoundingMinutes && row.timeRoundingMode ? { increment_minutes: row.timeRoundingMinutes as RoundingIncrement, mode: row.timeRoundingMode } : null;

/** The bounds of one entry: at least a second, at most a day. */
export const MIN_ENTRY_SECONDS = 1;
export const MAX_ENTRY_SECONDS = 24 * 60 * 60;

/**
 * Seconds to bill for a duration: unchanged without a rule; otherwise a whole number of increments,
 * rounded up, down, or to the nearest (a duration exactly halfway goes up). Down may bill 0.
 */
export function roundDuration(seconds: number, rounding: TimeRounding): number {
  if (!rounding) return seconds;
  const step = rounding.increment_minutes * 60;
  const whole = Math.floor(seconds / step);
  const rest = seconds - whole * step;
  if (rest === 0) return seconds;
  if (rounding.mode === 'down') return whole * step;
  if (rounding.mode === 'up') return (whole + 1) * step;
  return (rest * 2 >= step ? whole + 1 : whole) * step;
}

/**
 * The same rule over columns (integer seconds, the increment in minutes, the mode), for SQL sums.
 * Inputs are cast to INTEGER: D1 binds JS numbers as REAL, and `/` must be integer division.
 */
export function roundDurationSql(seconds: SQL | unknown, minutes: unknown, mode: unknown): SQL {
  const s = sql`CAST(${seconds} AS INTEGER)`;
  const step = sql`(CAST(${minutes} AS INTEGER) * 60)`;
  return sql`(CASE
    WHEN ${minutes} IS NULL OR ${mode} IS NULL THEN ${s}
    WHEN ${mode} = 'down' THEN (${s} / ${step}) * ${step}
    WHEN ${mode} = 'up' THEN ((${s} + ${step} - 1) / ${step}) * ${step}
    ELSE ((${s} * 2 + ${step}) / (${step} * 2)) * ${step}
  END)`;
}

/**
 * What billable seconds at an hourly rate are worth, in minor units: seconds × rate / 3600, rounded
 * half away from zero (all inputs are non-negative, so half up). Exact for every rate the API takes.
 */
export function amountFor(seconds: number, ratePerHour: number): number {
  return Number(divRoundHalfAwayFromZero(BigInt(seconds) * BigInt(ratePerHour), 3600n));
}

/** The same in SQL, per entry: (seconds × rate + 1800) / 3600 in integer division. */
export function amountForSql(seconds: SQL, ratePerHour: unknown): SQL {
  return sql`((CAST(${seconds} AS INTEGER) * CAST(${ratePerHour} AS INTEGER) + 1800) / 3600)`;
}
