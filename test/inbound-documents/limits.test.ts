// 500 documents a day per workspace (§7, §21): the 501st within 24 hours is a 429 `rate_limited` naming the daily
// limit, with Retry-After when the oldest counted leaves the window, and nothing of it is kept; two arriving at
// once for the last place get one; older documents and other workspaces' do not count.
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { TINY_PNG, uploadDocument } from '../helpers/inbound';
import { DAILY_DOCUMENT_LIMIT } from '../../src/modules/inbound-documents/daily-limit';

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const workspaceOf = async (key: string) => (await call('GET', '/api/me', { key })).body.workspace.id as string;

/** `count` documents received `ageMs` ago, written with SQL (uploading them would take the per-minute limit). */
async function alreadyReceived(workspaceId: string, count: number, ageMs: number) {
  const at = new Date(Date.now() - ageMs).toISOString();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO inbound_documents (id, workspace_id, source, status, received_at, filename, content_type, size, sha256, file_key, created_at, updated_at)
     SELECT 'ind_' || ?3 || printf('%016d', i), ?1, 'upload', 'needs_review', ?4, 'old.png', 'image/png', 1, 'x', 'inbound/x/' || i, ?4, ?4 FROM n`,
  ).bind(workspaceId, count, `01${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, at).run();
}

const storedFiles = async (workspaceId: string) => (await env.FILES.list({ prefix: `inbound/${workspaceId}/` })).objects.length;

describe('500 documents a day per workspace', () => {
  it('takes the 500th and refuses the 501st with a 429 that says when one more fits, keeping nothing of it', async () => {
    const user = await createUser();
    const workspaceId = await workspaceOf(user.key);
    const oldestAge = 20 * 3_600_000;
    await alreadyReceived(workspaceId, 1, oldestAge);
    await alreadyReceived(workspaceId, DAILY_DOCUMENT_LIMIT - 2, 3_600_000);

    expect((await uploadDocument(user.key, TINY_PNG)).status).toBe(202);
    const filesBefore = await storedFiles(workspaceId);
    const refused = await uploadDocument(user.key, TINY_PNG);
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.message).toContain('500 a day per workspace');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    // The oldest counted (20 hours old) leaves the 24-hour window in about 4 hours.
    expect(retryAfter).toBeGreaterThan(4 * 3600 - 120);
    expect(retryAfter).toBeLessThanOrEqual(4 * 3600);
    expect(refused.headers.get('RateLimit-Limit')).toBe('500');
    expect(refused.headers.get('RateLimit-Policy')).toBe('500;w=86400');
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    expect(refused.headers.get('RateLimit-Reset')).toBe(String(retryAfter));
    expect(await storedFiles(workspaceId)).toBe(filesBefore);
    const count = await env.DB.prepare('SELECT count(*) AS n FROM inbound_documents WHERE workspace_id = ?').bind(workspaceId).first<{ n: number }>();
    expect(count!.n).toBe(DAILY_DOCUMENT_LIMIT);
    expect((await call('GET', '/api/events?type=inbound_document.received', { key: user.key })).body.data).toHaveLength(1);

    // Another workspace is not held back by this one's documents.
    expect((await uploadDocument((await createUser()).key, TINY_PNG)).status).toBe(202);
  });

  it('counts only the last 24 hours', async () => {
    const user = await createUser();
    await alreadyReceived(await workspaceOf(user.key), DAILY_DOCUMENT_LIMIT, 25 * 3_600_000);
    expect((await uploadDocument(user.key, TINY_PNG)).status).toBe(202);
  });

  it('gives the last place to one of two documents arriving at once', async () => {
    const user = await createUser();
    await alreadyReceived(await workspaceOf(user.key), DAILY_DOCUMENT_LIMIT - 1, 3_600_000);
    const answers = await Promise.all([uploadDocument(user.key, TINY_PNG), uploadDocument(user.key, TINY_PNG)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 429]);
  });
});
