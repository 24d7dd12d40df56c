// Request and response fields of the document model that several rooms show: the workspace's default
// tax rounding and each invoice, quote and recurring invoice's own.
import { z } from '@hono/zod-openapi';
import { dateSchema } from '../../lib/schemas';
import { TAX_ROUNDING_MODES } from './totals';

/** The rounding mode with a description of its own use; /openapi.json says what the modes do once, on `TaxRounding` (openapi/shared-components.ts). */
export const taxRoundingField = (use: string) => z.enum(TAX_ROUNDING_MODES).openapi({ description: use });

// §20: the date (BT-72) or the period (BG-14) of supply, at most one; with neither, the issue date stands for it.
export const ServicePeriod = z
  .strictObject({ start: dateSchema, end: dateSchema })
  .refine((period) => period.end >= period.start, { message: 'end must not be before start.', path: ['end'] })
  .openapi('ServicePeriod');

// Request bodies are inlined in the document: their fields say no more than the response's components do.
export const serviceFields = { service_date: dateSchema.nullish(), service_period: ServicePeriod.nullish() };

/** The refinement every body with serviceFields takes: one of the two, never both (422 naming service_period). */
export const oneServiceDate: [(v: { service_date?: string | null; service_period?: unknown }) => boolean, { message: string; path: string[] }] = [
  (v) => !(v.service_date && v.service_period),
  { message: 'Give service_date or service_period, not both.', path: ['service_period'] },
];

export const serviceResponseFields = {
  service_date: z.string().nullable().openapi({ description: 'BT-72; or `service_period` (BG-14); with neither, the issue date.' }),
  service_period: ServicePeriod.nullable(),
};

type ServiceColumns = { serviceDate: string | null; servicePeriodStart: string | null; servicePeriodEnd: string | null };

/** The columns a body's service date or period sets: giving one clears the other. */
export function serviceColumns(input: { service_date?: string | null; service_period?: { start: string; end: string } | null }): Partial<ServiceColumns> {
  if (input.service_date) return { serviceDate: input.service_date, servicePeriodStart: null, servicePeriodEnd: null };
  if (input.service_period) return { serviceDate: null, servicePeriodStart: input.service_period.start, servicePeriodEnd: input.service_period.end };
  const set: Partial<ServiceColumns> = {};
  if (input.service_date === null) set.serviceDate = null;
  if (input.service_period === null) Object.assign(set, { servicePeriodStart: null, servicePeriodEnd: null });
  return set;
}

/** A record's service date and period as the API shows them. */
export const serviceOf = (row: ServiceColumns) => ({
  service_date: row.serviceDate,
  service_period: row.servicePeriodStart && row.servicePeriodEnd ? { start: row.servicePeriodStart, end: row.servicePeriodEnd } : null,
});
