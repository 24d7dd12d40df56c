// §21: a workspace's inbound email address, `<token>@INBOUND_EMAIL_DOMAIN`. The token is 104 bits no one can guess,
// made again whenever it is shown from the row's nonce under the server secret, so it is never stored; the email
// handler finds the workspace by the token's SHA-256. The first read makes the address; rotating replaces the nonce,
// after which mail to the old address is refused as unknown.
import { eq } from 'drizzle-orm';
import { config } from '../../config';
import { inboundAddresses, workspaces } from '../../db/schema';
import { randomToken, sha256Hex } from '../../lib/crypto';
import type { Db } from '../../lib/db';
import type { ServiceContext } from '../../lib/context';
import { serverToken } from '../../lib/server-token';
import { nowIso } from '../../lib/time';

/** 26 hex characters: 104 bits, lower case, as mail systems may fold the case of an address's local part. */
const TOKEN_LENGTH = 26;

async function tokenOf(env: Env, workspaceId: string, nonce: string): Promise<string> {
  return (await sha256Hex(await serverToken(env, `inbound-address:${workspaceId}:${nonce}`))).slice(0, TOKEN_LENGTH);
}

const addressOf = (env: Env, token: string) => `${token}@${config(env).INBOUND_EMAIL_DOMAIN}`;

async function newRow(env: Env, workspaceId: string) {
  const nonce = randomToken(16);
  const now = nowIso();
  return { workspaceId, nonce, tokenHash: await sha256Hex(await tokenOf(env, workspaceId, nonce)), createdAt: now, updatedAt: now };
}

/** The workspace's address, made on its first read (two first reads at once agree on one: the insert is conditional). */
export async function inboundAddress(ctx: ServiceContext): Promise<string> {
  const existing = await ctx.directory.select().from(inboundAddresses).where(eq(inboundAddresses.workspaceId, ctx.workspaceId)).get();
  if (existing) return addressOf(ctx.env, await tokenOf(ctx.env, ctx.workspaceId, existing.nonce));
  await ctx.directory.insert(inboundAddresses).values(await newRow(ctx.env, ctx.workspaceId)).onConflictDoNothing({ target: inboundAddresses.workspaceId });
  return inboundAddress(ctx);
}

/** A new address for the workspace; the old one finds nothing from now on. */
export async function rotateInboundAddress(ctx: ServiceContext): Promise<string> {
  const row = await newRow(ctx.env, ctx.workspaceId);
  await ctx.directory
    .insert(inboundAddresses)
    .values(row)
    .onConflictDoUpdate({ target: inboundAddresses.workspaceId, set: { nonce: row.nonce, tokenHash: row.tokenHash, updatedAt: row.updatedAt } });
  return addressOf(ctx.env, await tokenOf(ctx.env, ctx.workspaceId, row.nonce));
}

/** The workspace (its id and database) an address on our domain belongs to, or null: another domain, an old or made-up token. */
export async function workspaceOfAddress(env: Env, directory: Db, address: string): Promise<{ id: string; database: string | null } | null> {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.slice(at + 1).toLowerCase() !== config(env).INBOUND_EMAIL_DOMAIN) return null;
  const token = address.slice(0, at).toLowerCase();
  if (!/^[0-9a-f]+$/.test(token) || token.length !== TOKEN_LENGTH) return null;
  const found = await directory
    .select({ id: workspaces.id, database: workspaces.database })
    .from(inboundAddresses)
    .innerJoin(workspaces, eq(workspaces.id, inboundAddresses.workspaceId))
    .where(eq(inboundAddresses.tokenHash, await sha256Hex(token)))
    .get();
  return found ?? null;
}
