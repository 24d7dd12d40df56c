// What the co-pilot may know: its workspace's own project and invoice history, nothing else.
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { clients, invoiceLineItems, invoices, projects } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import type { WorkContext } from './providers/types';

const HISTORY_LINES = 200;

const median = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

export async function workContext(ctx: WorkspaceContext, projectId: string | null): Promise<WorkContext> {
  const { db } = ctx;
  const [projectRows, lines] = await db.batch([
    db
      .select({
        name: projects.name,
        hourlyRate: projects.hourlyRate,
        budget: projects.budget,
        currency: projects.currency,
        // Aliased: both tables have a `name` column.
        clientName: sql<string | null>`${clients.name}`.as('client_name'),
      })
      .from(projects)
      .leftJoin(clients, eq(clients.id, projects.clientId))
      .where(and(eq(projects.id, projectId ?? ''), inWorkspace(ctx, projects))),
    db
      .select({ quantityMilli: invoiceLineItems.quantityMilli, unitAmount: invoiceLineItems.unitAmount, currency: invoices.currency })
      .from(invoiceLineItems)
      .innerJoin(invoices, eq(invoices.id, invoiceLineItems.invoiceId))
      .where(and(inWorkspace(ctx, invoices), ne(invoices.status, 'void')))
      .orderBy(desc(invoices.id))
      .limit(HISTORY_LINES),
  ]);
  // Rates are only comparable within one currency: learn from the one billed most.
  const byCurrency = new Map<string, typeof lines>();
  for (const line of lines) byCurrency.set(line.currency, [...(byCurrency.get(line.currency) ?? []), line]);
  const [currency, sample] = [...byCurrency].sort((a, b) => b[1].length - a[1].length)[0] ?? [null, []];
  const hours = median(sample.map((l) => l.quantityMilli));
  return {
    project: projectRows[0] ?? null,
    history: {
      lines: sample.length,
      medianHours: hours === null ? null : hours / 1000,
      medianRate: median(sample.map((l) => l.unitAmount)),
      currency,
    },
  };
}
