// No received document waits forever (§21): one whose message was never sent stays `received` and the cron's
// sweep queues it again some minutes later, as it does one left `processing` past its claim; documents on either
// database, each message naming its database. Documents being read, or read, are left alone.
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { readOnQueue, TINY_PNG, uploadDocument } from '../helpers/inbound';
import { runScheduled } from '../helpers/worker';
import { workspaceOn } from '../scaling/helpers';
import { PROCESSING_LEASE_MS } from '../../src/modules/inbound-documents/consumer';
import { STRANDED_AFTER_MS } from '../../src/modules/inbound-documents/sweep';

let swept: unknown[];
beforeEach(() => {
  vi.restoreAllMocks();
  swept = [];
  vi.spyOn(env.INBOUND_QUEUE, 'sendBatch').mockImplementation(async (messages) => void swept.push(...[...messages].map((m) => m.body)) as never);
});

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const setOn = (db: D1Database, id: string, status: string, updatedAt: string) =>
  db.prepare('UPDATE inbound_documents SET status = ?, updated_at = ? WHERE id = ?').bind(status, updatedAt, id).run();

describe('the sweep of stranded documents', () => {
  it('keeps a document whose message could not be sent, and queues it again once it has waited', async () => {
    const user = await createUser();
    vi.spyOn(env.INBOUND_QUEUE, 'send').mockRejectedValue(new Error('queue unavailable'));
    const res = await uploadDocument(user.key, TINY_PNG);
    expect(res.status).toBe(202);
    const id = res.body.id;

    await runScheduled();
    expect(swept).toEqual([]);

    await setOn(env.DB, id, 'received', ago(STRANDED_AFTER_MS + 1_000));
    await runScheduled();
    expect(swept).toEqual([{ document_id: id }]);
    await readOnQueue(id);
    expect((await call('GET', `/v1/inbound-documents/${id}`, { key: user.key })).body.status).not.toBe('received');
  });

  it('queues a document left processing past its claim, and leaves one being read or read alone', async () => {
    const user = await createUser();
    vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
    const ids = await Promise.all([0, 1, 2].map(async () => (await uploadDocument(user.key, TINY_PNG)).body.id as string));
    const [dropped, beingRead, read] = ids as [string, string, string];
    await setOn(env.DB, dropped, 'processing', ago(PROCESSING_LEASE_MS + 1_000));
    await setOn(env.DB, beingRead, 'processing', ago(PROCESSING_LEASE_MS - 60_000));
    await setOn(env.DB, read, 'needs_review', ago(24 * 3_600_000));
    await runScheduled();
    expect(swept).toEqual([{ document_id: dropped }]);
  });

  it('queues a document of a workspace on the second database with a message naming it', async () => {
    const workspace = await workspaceOn('DB_WORKSPACES_2');
    vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
    const id = (await uploadDocument(workspace.key, TINY_PNG)).body.id;
    await setOn(env.DB_WORKSPACES_2, id, 'received', ago(STRANDED_AFTER_MS + 1_000));
    await runScheduled();
    expect(swept.filter((m) => (m as { document_id: string }).document_id === id)).toEqual([{ document_id: id, database: 'DB_WORKSPACES_2' }]);
  });
});
