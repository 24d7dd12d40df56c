// §21 "Email": each workspace has an inbound address, `<token>@<INBOUND_EMAIL_DOMAIN>` with at least 80 random bits;
// it stays the same until an admin rotates it, after which the old one belongs to no workspace.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/lib/db';
import { workspaceOfAddress } from '../../src/modules/inbound-documents/inbound-address';
import { call, expectError } from '../helpers/api';
import { addMember, createUser } from '../helpers/factories';

const addressOf = async (key: string) => {
  const res = await call('GET', '/api/workspace/inbound-address', { key });
  expect(res.status).toBe(200);
  return res.body.address as string;
};
const owner = (address: string) => workspaceOfAddress(env, createDb(env.DB), address);

describe('the inbound address', () => {
  it('is a token of at least 80 bits at the configured domain, the same on every read, and one per workspace', async () => {
    const a = await createUser('Ada');
    const b = await createUser('Bea');
    const first = await addressOf(a.key);
    expect(first).toMatch(/^[0-9a-f]{26}@inbound\.workspace\.example$/);
    expect(await addressOf(a.key)).toBe(first);
    const other = await addressOf(b.key);
    expect(other).not.toBe(first);
    const me = await call('GET', '/api/workspace', { key: a.key });
    expect((await owner(first))?.id).toBe(me.body.id);
    // The address's case and an unknown token or domain.
    expect((await owner(first.toUpperCase()))?.id).toBe(me.body.id);
    expect(await owner(`${'0'.repeat(26)}@inbound.workspace.example`)).toBeNull();
    expect(await owner(first.replace('inbound.workspace.example', 'elsewhere.example'))).toBeNull();
  });

  it('two first reads at once agree on one address', async () => {
    const a = await createUser('Cai');
    const [x, y] = await Promise.all([addressOf(a.key), addressOf(a.key)]);
    expect(x).toBe(y);
  });

  it('is replaced by an admin\'s rotation, and the old one then finds no workspace', async () => {
    const a = await createUser('Dee');
    const old = await addressOf(a.key);
    const rotated = await call('POST', '/api/workspace/inbound-address/rotate', { key: a.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.address).not.toBe(old);
    expect(await addressOf(a.key)).toBe(rotated.body.address);
    expect(await owner(old)).toBeNull();
    expect(await owner(rotated.body.address)).not.toBeNull();
  });

  it('is shown to members, not viewers, and rotated by admins only', async () => {
    const a = await createUser('Eve');
    const member = await addMember(a.key, 'member');
    const viewer = await addMember(a.key, 'viewer');
    expect(await addressOf(member.key)).toBe(await addressOf(a.key));
    expectError(await call('GET', '/api/workspace/inbound-address', { key: viewer.key }), 403, 'forbidden');
    expectError(await call('POST', '/api/workspace/inbound-address/rotate', { key: member.key }), 403, 'forbidden');
    expectError(await call('GET', '/api/workspace/inbound-address'), 401, 'unauthorized');
  });
});
