// Invitations: the operator invites an email; redeeming the code creates the user and their first key.
// KV holds the token (invite:v1:<hash of code> → invitation id) for the lookup; D1 holds the truth and
// makes redemption single-use: one batch whose statements each only act if the previous one did,
// so of a dozen racing redemptions exactly one creates a user.
import { eq } from 'drizzle-orm';
import { invitations, users, waitlist } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { randomToken, sha256Hex } from '../../lib/crypto';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { mintKey } from './api-keys';

const kvKey = (codeHash: string) => `invite:v1:${codeHash}`;
const DAY_MS = 86_400_000;

export async function createInvitation(db: Db, kv: KVNamespace, input: { email: string; expires_in_days: number }) {
  const code = `wsi_${randomToken(24)}`;
  const codeHash = await sha256Hex(code);
  const now = new Date();
  const row = {
    id: newId('invitation'),
    email: input.email,
    codeHash,
    expiresAt: new Date(now.getTime() + input.expires_in_days * DAY_MS).toISOString(),
    createdAt: now.toISOString(),
  };
  await db.batch([
    db.insert(invitations).values(row),
    db.update(waitlist).set({ status: 'invited', updatedAt: row.createdAt }).where(eq(waitlist.email, input.email)),
  ]);
  await kv.put(kvKey(codeHash), row.id, { expirationTtl: input.expires_in_days * 86_400 });
  return { id: row.id, email: row.email, code, expires_at: row.expiresAt };
}

export async function acceptInvitation(db: Db, d1: D1Database, kv: KVNamespace, input: { code: string; name: string }) {
  const codeHash = await sha256Hex(input.code);
  // KV is eventually consistent, so a miss falls back to D1, the record of truth.
  const invitationId = (await kv.get(kvKey(codeHash))) ?? (await findIdByHash(db, codeHash));
  if (!invitationId) throw notFound('Invitation');
  const invitation = await db.query.invitations.findFirst({ where: eq(invitations.id, invitationId) });
  if (!invitation) throw notFound('Invitation');
  if (invitation.acceptedAt) throw used();
  const now = nowIso();
  if (invitation.expiresAt <= now) throw expired();

  const userId = newId('user');
  // The personal workspace and the user share a ULID (usr_X, wsp_X), as migration 0006 made them.
  const workspaceId = `wsp_${userId.slice(4)}`;
  const { key, row: keyRow } = await mintKey(userId, workspaceId, 'Default key');
  const stillOpen = 'SELECT 1 FROM invitations WHERE id = ?1 AND accepted_at IS NULL AND expires_at > ?2';
  const userMade = 'EXISTS (SELECT 1 FROM invitations WHERE id = ?1 AND accepted_by = ?3)';
  let results: D1Result[];
  try {
    results = await d1.batch([
      d1
        .prepare(`INSERT INTO users (id, email, name, invoice_seq, created_at) SELECT ?3, ?4, ?5, 0, ?2 WHERE EXISTS (${stillOpen})`)
        .bind(invitation.id, now, userId, invitation.email, input.name),
      d1
        .prepare('UPDATE invitations SET accepted_at = ?2, accepted_by = ?3 WHERE id = ?1 AND accepted_at IS NULL AND expires_at > ?2 AND EXISTS (SELECT 1 FROM users WHERE id = ?3)')
        .bind(invitation.id, now, userId),
      d1
        .prepare(`INSERT INTO workspaces (id, name, personal_user_id, created_at, updated_at) SELECT ?4, ?5, ?3, ?2, ?2 WHERE ${userMade}`)
        .bind(invitation.id, now, userId, workspaceId, input.name),
      d1
        .prepare(`INSERT INTO memberships (id, workspace_id, user_id, role, created_at) SELECT ?4, ?5, ?3, 'owner', ?2 WHERE ${userMade}`)
        .bind(invitation.id, now, userId, `mem_${userId.slice(4)}`, workspaceId),
      d1
        .prepare(`INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) SELECT ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE ${userMade}`)
        .bind(invitation.id, keyRow.id, userId, workspaceId, keyRow.name, keyRow.prefix, keyRow.keyHash, keyRow.createdAt),
      d1
        .prepare("UPDATE waitlist SET status = 'joined', updated_at = ?2 WHERE email = ?3 AND EXISTS (SELECT 1 FROM users WHERE id = ?1)")
        .bind(userId, now, invitation.email),
    ]);
  } catch (err) {
    if (String(err).includes('UNIQUE constraint failed: users.email')) {
      throw new ApiError('conflict', 'An account with this email already exists.');
    }
    throw err;
  }
  if (results[0]!.meta.changes === 0) {
    // Lost the race: someone redeemed it (or it expired) between our read and our batch.
    const latest = await db.query.invitations.findFirst({ where: eq(invitations.id, invitation.id) });
    throw latest?.acceptedAt ? used() : expired();
  }
  await kv.delete(kvKey(codeHash));
  const user = await db.query.users.findFirst({ where: eq(users.id, userId) });
  return {
    user: serializeUser(user!),
    workspace: { id: workspaceId, name: input.name, role: 'owner' as const },
    api_key: { id: keyRow.id, name: keyRow.name, prefix: keyRow.prefix, workspace_id: workspaceId, created_at: keyRow.createdAt, key },
  };
}

async function findIdByHash(db: Db, codeHash: string): Promise<string | null> {
  const row = await db.select({ id: invitations.id }).from(invitations).where(eq(invitations.codeHash, codeHash)).get();
  return row?.id ?? null;
}

const used = () => new ApiError('invitation_used', 'This invitation has already been used.');
const expired = () => new ApiError('invitation_expired', 'This invitation has expired; ask for a new one.');

export const serializeUser = (row: typeof users.$inferSelect) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  created_at: row.createdAt,
});
