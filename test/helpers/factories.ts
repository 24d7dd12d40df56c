// Users come into being the way they do in production: an operator's invitation, redeemed.
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { workspaceInvitationCode } from '../../src/modules/access/invitation-code';
import { ADMIN_TOKEN, call } from './api';

let counter = 0;

export type TestUser = { id: string; email: string; key: string; keyId: string };

export async function createUser(name = 'Test User'): Promise<TestUser> {
  const email = `user${Date.now()}${++counter}${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email } });
  expect(invite.status).toBe(201);
  const accepted = await call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name } });
  expect(accepted.status).toBe(201);
  return { id: accepted.body.user.id, email, key: accepted.body.api_key.key, keyId: accepted.body.api_key.id };
}

export async function createClient(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/workflow/clients', { key, body: { name: 'Acme Ltd', ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

export async function createProject(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/workflow/projects', { key, body: { name: 'Website', ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

export const oneLine = [{ description: 'Design work', quantity: 10, unit_amount: 10_000 }];

export async function createInvoice(key: string, body: Record<string, unknown> = {}) {
  const clientId = (body.client_id as string | undefined) ?? (await createClient(key)).id;
  const res = await call('POST', '/v1/invoices', { key, body: { client_id: clientId, line_items: oneLine, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

export async function createSentInvoice(key: string, body: Record<string, unknown> = {}) {
  const invoice = await createInvoice(key, body);
  const sent = await call('POST', `/v1/invoices/${invoice.id}/send`, { key });
  expect(sent.status).toBe(200);
  return sent.body;
}

export type Role = 'viewer' | 'member' | 'admin' | 'owner';

/** A new person invited into `ownerKey`'s workspace with `role`; their key acts in that workspace. */
export async function addMember(ownerKey: string, role: Role, name = `A ${role}`): Promise<TestUser> {
  const email = `member${Date.now()}${++counter}${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invite = await call('POST', '/api/workspace/invitations', { key: ownerKey, body: { email, role } });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  const accepted = await call('POST', '/api/invitations/accept', { body: { code: await emailedCode(invite.body.id), name } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  return { id: accepted.body.user.id, email, key: accepted.body.api_key.key, keyId: accepted.body.api_key.id };
}

/**
 * The code a workspace invitation's email carries to the invitee (the inviter never sees it): the
 * worker derives it from the invitation's id when it composes the email, and so does this helper.
 */
export const emailedCode = (invitationId: string) => workspaceInvitationCode(env, invitationId);

/** One workspace with a key for each role: its owner and three invited members. */
export async function workspaceWithEveryRole(): Promise<Record<Role, TestUser>> {
  const owner = await createUser('Owner');
  return {
    owner,
    admin: await addMember(owner.key, 'admin'),
    member: await addMember(owner.key, 'member'),
    viewer: await addMember(owner.key, 'viewer'),
  };
}
