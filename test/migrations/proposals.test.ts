// The migration that adds proposals (§24), on a database filled through the schema before it: the
// gigs already on the board keep every row and their search index, take proposals at once, and a
// workspace can have one live proposal per gig (a second insert is refused by the index itself).
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../helpers/empty-database';

// The migration under test: 0035_proposals (mcp_proposals ends alike, so it is matched whole below).
const T = '2026-10-01T09:00:00.000Z';
const poster = 'usr_01JA0000000000000000000PP1';
const sender = 'usr_01JA0000000000000000000PP2';
const gig = 'gig_01JA0000000000000000000PP1';

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

/** Two people with their personal workspaces and a gig on the board, as the schema before held them. */
async function fillOldSchema() {
  for (const [user, name] of [[poster, 'Poppy'], [sender, 'Sam']] as const) {
    await run(`INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?)`, user, `${name.toLowerCase()}@example.com`, name, T);
    await run(`INSERT INTO workspaces (id, name, personal_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, `wsp_${user.slice(4)}`, name, user, T, T);
  }
  await run(`INSERT INTO gigs (id, user_id, workspace_id, poster_name, title, description, skills, budget_type, budget_min, budget_max, currency, status, created_at, updated_at)
    VALUES (?, ?, ?, 'Poppy', 'Bakery website', 'Online orders for bread.', '["webflow"]', 'fixed', 100000, 200000, 'EUR', 'open', ?, ?)`, gig, poster, `wsp_${poster.slice(4)}`, T, T);
}

const proposal = (id: string, status: string) =>
  run(`INSERT INTO proposals (id, gig_id, workspace_id, user_id, status, message, from_workspace_name, from_user_name, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, 'I bake websites.', 'Sam', 'Sam', ?, ?)`, id, gig, `wsp_${sender.slice(4)}`, sender, status, T, T);

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => /^\d+_proposals(\.sql)?$/.test(m.name))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !/^\d+_proposals(\.sql)?$/.test(m.name)));
  await fillOldSchema();
  await applyD1Migrations(env.DB, migrations);
});

describe('migration: proposals', () => {
  it('keeps the gigs and their search index as they were', async () => {
    expect((await env.DB.prepare('SELECT id, title, status FROM gigs').all()).results).toEqual([{ id: gig, title: 'Bakery website', status: 'open' }]);
    expect((await env.DB.prepare(`SELECT rowid FROM gigs_fts WHERE gigs_fts MATCH '"bread"*'`).all()).results).toHaveLength(1);
  });

  it('takes proposals on an existing gig, one live one per workspace, and withdrawn ones beside it', async () => {
    await proposal('prp_01JA0000000000000000000PP1', 'submitted');
    await expect(proposal('prp_01JA0000000000000000000PP2', 'submitted')).rejects.toThrow(/UNIQUE constraint failed/);
    await run(`UPDATE proposals SET status = 'withdrawn' WHERE id = 'prp_01JA0000000000000000000PP1'`);
    await proposal('prp_01JA0000000000000000000PP2', 'submitted');
    const rows = (await env.DB.prepare('SELECT id, status, links, records_pending FROM proposals ORDER BY id').all()).results;
    expect(rows).toEqual([
      { id: 'prp_01JA0000000000000000000PP1', status: 'withdrawn', links: '[]', records_pending: 0 },
      { id: 'prp_01JA0000000000000000000PP2', status: 'submitted', links: '[]', records_pending: 0 },
    ]);
  });

  it('goes with its gig when the gig is removed', async () => {
    await run('DELETE FROM gigs WHERE id = ?', gig);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM proposals').first())!.n).toBe(0);
  });
});
