// Which records a period's figures count (§22), written once for the reports and their rows
// (rows.ts), so the rows always add up to the reports; the triggers that keep the profit and loss's
// daily sums (migration 0033) count the same, which test/reports/daily-sums.test.ts checks. `a` is
// the alias a query gives the table.
// - invoices issued in the period, open or paid (a draft is not issued; a void invoice was taken
//   back whole, which voiding allows only while nothing is paid or credited);
// - credit notes, payments and expenses dated in it;
// - refunds made in it that did not fail (a pending one already counts against what was paid, §16).
import { type SQL, sql } from 'drizzle-orm';
import type { Period } from './period';

const alias = (a: string) => sql.raw(a);

export function countedIn(workspaceId: string, { from, to }: Period) {
  const dated = (a: string, column: string) => sql`${alias(a)}.workspace_id = ${workspaceId} AND ${alias(`${a}.${column}`)} BETWEEN ${from} AND ${to}`;
  return {
    invoices: (a: string): SQL => sql`${dated(a, 'issue_date')} AND ${alias(a)}.status IN ('open', 'paid')`,
    creditNotes: (a: string): SQL => dated(a, 'issue_date'),
    payments: (a: string): SQL => dated(a, 'paid_on'),
    refunds: (a: string): SQL => sql`${dated(a, 'refunded_on')} AND ${alias(a)}.status <> 'failed'`,
    expenses: (a: string): SQL => dated(a, 'incurred_on'),
  };
}
