import { and, desc, eq, lt } from 'drizzle-orm';
import { waitlist } from '../../db/schema';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';

type WaitlistRow = typeof waitlist.$inferSelect;

export const serializeWaitlistEntry = (row: WaitlistRow) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  status: row.status,
  created_at: row.createdAt,
});

export const serializeAdminWaitlistEntry = (row: WaitlistRow) => ({
  ...serializeWaitlistEntry(row),
  company: row.company,
  note: row.note,
  updated_at: row.updatedAt,
});

/** Idempotent per email: a second sign-up returns the first entry untouched (`created: false`). */
export async function joinWaitlist(
  db: Db,
  input: { email: string; name?: string; company?: string; note?: string },
): Promise<{ entry: WaitlistRow; created: boolean }> {
  const now = nowIso();
  const inserted = await db
    .insert(waitlist)
    .values({
      id: newId('waitlist'),
      email: input.email,
      name: input.name ?? null,
      company: input.company ?? null,
      note: input.note ?? null,
      status: 'waiting',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: waitlist.email })
    .returning();
  if (inserted[0]) return { entry: inserted[0], created: true };
  const existing = await db.query.waitlist.findFirst({ where: eq(waitlist.email, input.email) });
  return { entry: existing!, created: false };
}

export async function listWaitlist(db: Db, filter: { status?: WaitlistRow['status']; limit: number; beforeId?: string }) {
  return db
    .select()
    .from(waitlist)
    .where(
      and(
        filter.status ? eq(waitlist.status, filter.status) : undefined,
        filter.beforeId ? lt(waitlist.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(waitlist.id))
    .limit(filter.limit + 1);
}
