// Who may review inbound documents (§9, §21): a member corrects, accepts and rejects, a viewer reads the page but
// changes nothing (403 naming the role, before anything about the document), no key is a 401. Another workspace's
// document is a 404 on every review route, whichever database each workspace is on, and is left as it was; an id
// of the wrong shape is a 404 too.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { type Role, type TestUser, workspaceWithEveryRole } from '../helpers/factories';
import { readOnQueue, uploadDocument } from '../helpers/inbound';
import { DATABASES, type DatabaseName, otherThan, workspaceOn } from '../scaling/helpers';
import { exportedXml, sentInvoice, type Supplier, supplierStudio } from './exports';
import { accept, correct, documentOf, invoiceInReview, reject } from './in-review';

let supplier: Supplier;

beforeAll(async () => {
  supplier = await supplierStudio();
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const view = (key: string, id: string) => call('GET', `/v1/inbound-documents/${id}/view`, { key });

describe('roles', () => {
  let team: Record<Role, TestUser>;
  beforeAll(async () => {
    team = await workspaceWithEveryRole();
  });

  it('lets a viewer read the page and nothing more; a member corrects, accepts and rejects', async () => {
    const { document } = await invoiceInReview(team.member.key, supplier);
    expect((await view(team.viewer.key, document.id)).status).toBe(200);
    for (const refused of [
      await correct(team.viewer.key, document.id, { number: 'X' }),
      await accept(team.viewer.key, document.id),
      await reject(team.viewer.key, document.id),
      // Even with a body that would be refused anyway: the role comes first.
      await call('POST', `/v1/inbound-documents/${document.id}/accept`, { key: team.viewer.key, body: { category: 'nonsense' } }),
    ]) expect(expectError(refused, 403, 'forbidden').message).toContain('member');
    expect(await documentOf(team.viewer.key, document.id)).toEqual(document);
    for (const unknown of [correct('', document.id, {}), accept('', document.id), view('', document.id)]) expectError(await unknown, 401, 'unauthorized');

    expect((await correct(team.member.key, document.id, { purchase_order: 'PO-1' })).status).toBe(200);
    expect((await accept(team.member.key, document.id)).status).toBe(200);
    const second = (await invoiceInReview(team.member.key, supplier)).document;
    expect((await reject(team.member.key, second.id)).status).toBe(200);
  });
});

describe('another workspace\'s document', () => {
  let xml: string;
  beforeAll(async () => {
    xml = await exportedXml(supplier, (await sentInvoice(supplier)).id, 'ubl');
  });

  it.each(DATABASES.flatMap((mine) => [[mine, mine], [mine, otherThan(mine)]] as [DatabaseName, DatabaseName][]))(
    'is a 404 on every review route and stays as it was (theirs on %s, the caller on %s)',
    async (theirs, callers) => {
      const owner = await workspaceOn(theirs, 'owner');
      const stranger = await workspaceOn(callers, 'stranger');
      const id = (await uploadDocument(owner.key, xml, { contentType: 'application/xml' })).body.id;
      await readOnQueue(id, { database: theirs });
      const before = await documentOf(owner.key, id);
      expect(before.status).toBe('needs_review');
      for (const res of [
        await correct(stranger.key, id, { number: 'X' }),
        await accept(stranger.key, id),
        await reject(stranger.key, id),
        await view(stranger.key, id),
      ]) expectError(res, 404, 'not_found');
      expect(await documentOf(owner.key, id)).toEqual(before);
    },
  );

  it('and an id of the wrong shape are a 404', async () => {
    const { key } = await workspaceOn('DB', 'owner');
    for (const id of ['ind_nope', 'exp_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', 'ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7']) {
      for (const res of [await correct(key, id, { number: 'X' }), await accept(key, id), await reject(key, id), await view(key, id)]) expectError(res, 404, 'not_found');
    }
  });
});
