// Migration 0031 on a database filled while inbound documents had no index by status: the index is added, no row
// changes, and the cron's sweep of stranded documents reads through it rather than every document there is.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../helpers/factories';
import { TINY_PNG, uploadDocument } from '../helpers/inbound';
import { strandedDocuments } from '../../src/modules/inbound-documents/sweep';

const MIGRATION = 'inbound_documents_status_index';
const index = async () => (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'inbound_documents_status_idx'").all()).results;
const documentRows = async () => (await env.DB.prepare('SELECT * FROM inbound_documents ORDER BY id').all()).results;

beforeAll(async () => {
  // The setup file migrated this database to the newest schema; the index is dropped and 0031 marked as not yet
  // applied, as 0030 left it.
  const migration = env.TEST_MIGRATIONS.filter((m) => m.name.includes(MIGRATION));
  expect(migration).toHaveLength(1);
  await env.DB.batch([env.DB.prepare('DROP INDEX inbound_documents_status_idx'), env.DB.prepare('DELETE FROM d1_migrations WHERE name = ?').bind(migration[0]!.name)]);
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
  const user = await createUser();
  for (let i = 0; i < 3; i++) expect((await uploadDocument(user.key, TINY_PNG)).status).toBe(202);
});

describe('migration 0031 (an index of inbound documents by status)', () => {
  it('adds the index, leaves every document as it was, and the sweep reads through it', async () => {
    expect(await index()).toEqual([]);
    const before = await documentRows();
    expect(before).toHaveLength(3);

    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

    expect(await index()).toHaveLength(1);
    expect(await documentRows()).toEqual(before);
    const { sql, params } = strandedDocuments(env).toSQL();
    const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((s) => s.detail);
    expect(plan.join('\n')).toContain('inbound_documents_status_idx');
    expect(await strandedDocuments(env, Date.now() + 3_600_000)).toHaveLength(3);
  });
});
