// How much one bundle may hold. Its job runs in one queue delivery, which may last 15 minutes, and writes a ZIP
// without ZIP64 (fflate's Zip writes none: past 65,535 entries or 4 GiB its counts and offsets silently wrap, a
// broken file). The bench (bench/README.md, "the accountant's hand-off") measured some 65 ms and 42 ms of CPU per
// document, so about 13,000 documents would fill the 15 minutes on that machine. A bundle holds at most 5,000:
// about 5½ minutes there, room for a renderer or a machine at half that pace, and at most 10,005 entries (a PDF and
// an XML each, and five CSVs). Bytes are not bounded by the count (a received original may be 10 MB), so the
// writer stops short of 4 GiB itself (zip-upload.ts).
import { invalidField } from '../../../errors';
import type { WorkspaceContext } from '../../../lib/context';
import { clientOf } from '../../../lib/db';
import type { Period } from '../pages';
import type { ExportKind } from '../schemas';

/** An object, so that a test can lower it. */
export const bundleLimits = { documents: 5_000 };

/** A bundle its job cannot write: it fails with this message rather than being tried again. */
export class BundleTooLarge extends Error {}

// What documents.ts writes into the ZIP, counted from the same indexes.
const COUNTS: Partial<Record<ExportKind, string>> = {
  invoices: `SELECT count(*) AS n FROM invoices WHERE workspace_id = ?1 AND issue_date BETWEEN ?2 AND ?3 AND status <> 'draft'`,
  credit_notes: `SELECT count(*) AS n FROM credit_notes WHERE workspace_id = ?1 AND issue_date BETWEEN ?2 AND ?3`,
  expenses: `SELECT count(*) AS n FROM inbound_documents d LEFT JOIN expenses e ON e.id = d.expense_id
    WHERE d.workspace_id = ?1 AND d.status = 'accepted' AND coalesce(e.incurred_on, substr(d.received_at, 1, 10)) BETWEEN ?2 AND ?3`,
};

/** How many documents (PDFs and received originals) a bundle of `kinds` over the period holds. */
export async function documentsIn(ctx: WorkspaceContext, period: Period, kinds: ExportKind[]): Promise<number> {
  const sql = kinds.flatMap((kind) => COUNTS[kind] ?? []);
  if (!sql.length) return 0;
  const d1 = clientOf(ctx.db);
  const counts = await d1.batch<{ n: number }>(sql.map((s) => d1.prepare(s).bind(ctx.workspaceId, period.from, period.to)));
  return counts.reduce((total, result) => total + (result.results[0]?.n ?? 0), 0);
}

const tooMany = (count: number) =>
  `The period holds ${count.toLocaleString('en-US')} documents; a bundle holds at most ${bundleLimits.documents.toLocaleString('en-US')}. Ask for a shorter period.`;

/** 422 on `to` when the period holds more documents than a bundle. */
export async function assertBundleFits(ctx: WorkspaceContext, period: Period, kinds: ExportKind[]): Promise<void> {
  const count = await documentsIn(ctx, period, kinds);
  if (count > bundleLimits.documents) throw invalidField('to', tooMany(count));
}

/** The job's own check, for documents added since the bundle was asked for. */
export async function checkBundleFits(ctx: WorkspaceContext, period: Period, kinds: ExportKind[]): Promise<void> {
  const count = await documentsIn(ctx, period, kinds);
  if (count > bundleLimits.documents) throw new BundleTooLarge(tooMany(count));
}
