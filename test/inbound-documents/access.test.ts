// Who may do what with inbound documents (§9, §21): a member uploads, a viewer reads (the list, one, its file)
// but uploads nothing; no key is a 401. Another workspace's document is a 404 everywhere, whichever database each
// workspace is on, and never shows in a list; a document on the second database is read there by its message.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError, open } from '../helpers/api';
import { type Role, type TestUser, workspaceWithEveryRole } from '../helpers/factories';
import { readOnQueue, TINY_PNG, uploadDocument } from '../helpers/inbound';
import { DATABASES, type DatabaseName, otherThan, rowsById, workspaceOn } from '../scaling/helpers';
import { exportedXml, sentInvoice, supplierStudio } from './exports';

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const file = (key: string, id: string) => open(`https://workspace.test/v1/inbound-documents/${id}/file`, { headers: { Authorization: `Bearer ${key}` } });

describe('roles', () => {
  let team: Record<Role, TestUser>;
  let documentId: string;
  beforeAll(async () => {
    team = await workspaceWithEveryRole();
  });

  it('lets a member upload, and refuses a viewer with a 403 naming the role, before reading the body', async () => {
    const upload = await uploadDocument(team.member.key, TINY_PNG);
    expect(upload.status).toBe(202);
    documentId = upload.body.id;
    const refused = await uploadDocument(team.viewer.key, TINY_PNG);
    expect(expectError(refused, 403, 'forbidden').message).toContain('member');
    // Even a body that would be refused anyway: the role is checked first.
    expectError(await uploadDocument(team.viewer.key, '<html></html>'), 403, 'forbidden');
    expectError(await uploadDocument('', TINY_PNG), 401, 'unauthorized');
  });

  it('lets a viewer read the list, the document and its file', async () => {
    expect((await call('GET', '/v1/inbound-documents', { key: team.viewer.key })).body.data.map((d: { id: string }) => d.id)).toContain(documentId);
    expect((await call('GET', `/v1/inbound-documents/${documentId}`, { key: team.viewer.key })).body.id).toBe(documentId);
    const res = await file(team.viewer.key, documentId);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(TINY_PNG);
    expect((await file('', documentId)).status).toBe(401);
  });
});

describe('another workspace\'s documents', () => {
  it.each(DATABASES.flatMap((mine) => [[mine, mine], [mine, otherThan(mine)]] as [DatabaseName, DatabaseName][]))(
    'are a 404 and never listed (theirs on %s, the caller on %s)',
    async (theirs, callers) => {
      const owner = await workspaceOn(theirs, 'owner');
      const stranger = await workspaceOn(callers, 'stranger');
      const upload = await uploadDocument(owner.key, TINY_PNG);
      expect(upload.status).toBe(202);
      const id = upload.body.id;
      expect(await rowsById('inbound_documents', id)).toEqual({ [theirs]: 1, [otherThan(theirs)]: 0 });

      expectError(await call('GET', `/v1/inbound-documents/${id}`, { key: stranger.key }), 404, 'not_found');
      expectError(await call('GET', `/v1/inbound-documents/${id}/file`, { key: stranger.key }), 404, 'not_found');
      expect((await call('GET', '/v1/inbound-documents?limit=100', { key: stranger.key })).body.data.map((d: { id: string }) => d.id)).not.toContain(id);
      // The API never shows where the file is kept.
      expect(JSON.stringify((await call('GET', `/v1/inbound-documents/${id}`, { key: owner.key })).body)).not.toContain('inbound/');
    },
  );

  it('is read on its own database when its message names it, and a message naming another finds nothing there', async () => {
    const supplier = await supplierStudio();
    const xml = await exportedXml(supplier, (await sentInvoice(supplier)).id, 'cii');
    const workspace = await workspaceOn('DB_WORKSPACES_2', 'owner');
    const id = (await uploadDocument(workspace.key, xml, { contentType: 'application/xml' })).body.id;
    const astray = await readOnQueue(id);
    expect(astray.explicitAcks).toHaveLength(1);
    expect((await call('GET', `/v1/inbound-documents/${id}`, { key: workspace.key })).body.status).toBe('received');
    await readOnQueue(id, { database: 'DB_WORKSPACES_2' });
    expect((await call('GET', `/v1/inbound-documents/${id}`, { key: workspace.key })).body).toMatchObject({ status: 'needs_review', format: 'cii' });
    const events = (await call('GET', '/api/events?type=inbound_document.processed', { key: workspace.key })).body.data;
    expect(events.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([id]);
  });
});
