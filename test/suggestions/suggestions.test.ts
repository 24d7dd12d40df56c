import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consumeSuggestions } from '../../src/modules/suggestions/consumer';
import { SUGGESTION_MAX_RETRIES, suggestionMessage } from '../../src/modules/suggestions/message';
import { splitTask } from '../../src/modules/suggestions/providers/local';
import type { SuggestionProvider } from '../../src/modules/suggestions/providers/types';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createClient, createProject, createUser, workspaceWithEveryRole } from '../helpers/factories';
import { consumerMaxRetries, deliver } from '../helpers/worker';

const QUEUE = 'workspace-suggestions';
const DEAD_LETTERS = 'workspace-suggestions-dlq';
const SUGGESTIONS_JOB = { type: 'system', id: null, name: 'suggestions' };

// What the API enqueues stays off the runtime's queue, whose consumer would run it in the
// background when it pleases: every test delivers the messages itself.
beforeEach(() => {
  vi.spyOn(env.SUGGESTIONS_QUEUE, 'send').mockResolvedValue(undefined as never);
});
afterEach(() => vi.restoreAllMocks());

type Event = { actor: unknown; data: { object: Record<string, unknown> } };
/** The workspace's events of one type, as read with `key`. */
const eventsOf = async (key: string, type: string): Promise<Event[]> => (await call('GET', `/api/events?type=${type}&limit=100`, { key })).body.data;

async function ask(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/ai/suggest', { key, body });
  expect(res.status).toBe(202);
  expect(res.headers.get('Location')).toBe(`/v1/ai/suggestions/${res.body.id}`);
  return res.body;
}
const job = async (key: string, id: string) => (await call('GET', `/v1/ai/suggestions/${id}`, { key })).body;

async function runWith(provider: SuggestionProvider, suggestionId: string, attempts = 1) {
  const batch = createMessageBatch(QUEUE, [{ id: 'm1', timestamp: new Date(), body: suggestionMessage(suggestionId), attempts }]);
  await consumeSuggestions(batch, env, provider);
  return getQueueResult(batch, createExecutionContext());
}

describe('the co-pilot', () => {
  it('queues a plan and completes it through the queue with the local provider', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Redesign the checkout page and add Apple Pay. Then run an A/B test' });
    expect(queued).toEqual({ id: expect.stringMatching(/^sug_/), status: 'queued', kind: 'plan', task: expect.any(String), created_at: expect.any(String) });
    expect((await job(user.key, queued.id)).status).toBe('queued');

    await deliver(QUEUE, [{ id: 'm1', body: suggestionMessage(queued.id) }]);
    const done = await job(user.key, queued.id);
    // No model wrote it: the suggestion is marked a sample, and its first line says so.
    expect(done).toMatchObject({ status: 'completed', provider: 'local', sample: true, error: null, completed_at: expect.any(String) });
    expect(done.suggestions[0]).toEqual({ title: 'Sample: no AI model wrote this', detail: expect.stringContaining('not by an AI model') });
    expect(done.suggestions.map((s: { title: string }) => s.title)).toEqual([
      'Sample: no AI model wrote this',
      'Agree the scope',
      'Step 1: Redesign the checkout page',
      'Step 2: Add Apple Pay',
      'Step 3: Run an A/B test',
      'Review and hand over',
    ]);
    // A redelivery does not run it again.
    const result = await deliver(QUEUE, [{ id: 'm2', body: suggestionMessage(queued.id) }]);
    expect(result.explicitAcks).toEqual(['m2']);
    expect((await job(user.key, queued.id)).completed_at).toBe(done.completed_at);
    // One event, by the job, carrying the finished suggestion.
    const events = await eventsOf(user.key, 'suggestion.completed');
    expect(events.map((e) => [e.actor, e.data.object])).toEqual([[SUGGESTIONS_JOB, done]]);
    expect(await eventsOf(user.key, 'suggestion.failed')).toEqual([]);
  });

  it('estimates and prices from the caller\'s own invoices and project', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { name: 'Globex' });
    // History: lines of 3 h, 5 h and 4 h at $100, $120 and $110 an hour: medians 4 h and $110.
    await call('POST', '/v1/invoices', {
      key: user.key,
      body: {
        client_id: client.id,
        line_items: [
          { description: 'a', quantity: 3, unit_amount: 10_000 },
          { description: 'b', quantity: 5, unit_amount: 12_000 },
          { description: 'c', quantity: 4, unit_amount: 11_000 },
        ],
      },
    });
    const estimate = await ask(user.key, { kind: 'estimate', task: 'Build the API and write the docs' });
    await deliver(QUEUE, [{ id: 'e', body: suggestionMessage(estimate.id) }]);
    const e = await job(user.key, estimate.id);
    expect(e.suggestions.at(-1)).toEqual({ title: 'Total', detail: expect.stringContaining('$110.00/h'), estimate_hours: 8, amount: 88_000 });

    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 15_000, budget: 100_000 });
    const price = await ask(user.key, { kind: 'pricing', task: 'Build the API and write the docs', project_id: project.id });
    await deliver(QUEUE, [{ id: 'p', body: suggestionMessage(price.id) }]);
    const p = await job(user.key, price.id);
    // 8 h × $150 × 1.15 = $1,380.00, over the $1,000 budget.
    expect(p.suggestions.slice(1)).toEqual([
      { title: 'Hourly', detail: expect.stringContaining('$150.00'), amount: 15_000 },
      { title: 'Fixed price', detail: expect.any(String), estimate_hours: 8, amount: 138_000 },
      { title: 'Against the budget', detail: expect.stringContaining('exceeds'), amount: 100_000 },
    ]);

    const msg = await ask(user.key, { kind: 'message', task: 'Move the launch to Friday', project_id: project.id });
    await deliver(QUEUE, [{ id: 'x', body: suggestionMessage(msg.id) }]);
    const m = await job(user.key, msg.id);
    expect(m.suggestions[1].detail).toMatch(/^Hi Globex,[\s\S]*for Website before starting/);
  });

  it('fails the job with a reason when the provider answers junk', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Plan the launch' });
    const junk: SuggestionProvider = { name: 'workers-ai', suggest: async () => [{ title: '', detail: 42 }] };
    const result = await runWith(junk, queued.id);
    expect(result.explicitAcks).toEqual(['m1']);
    const failed = await job(user.key, queued.id);
    expect(failed).toMatchObject({ status: 'failed', provider: 'workers-ai', suggestions: [], error: expect.stringContaining('not usable') });
    expect((await eventsOf(user.key, 'suggestion.failed')).map((e) => [e.actor, e.data.object])).toEqual([[SUGGESTIONS_JOB, failed]]);
  });

  it('retries a provider that throws while the queue will redeliver, then fails the job on the last delivery', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Plan the launch' });
    const down: SuggestionProvider = { name: 'workers-ai', suggest: async () => { throw new Error('model overloaded'); } };
    for (let attempts = 1; attempts <= SUGGESTION_MAX_RETRIES; attempts++) {
      expect((await runWith(down, queued.id, attempts)).retryMessages, `attempt ${attempts}`).toHaveLength(1);
      expect((await job(user.key, queued.id)).status).toBe('queued');
    }
    expect((await runWith(down, queued.id, SUGGESTION_MAX_RETRIES + 1)).explicitAcks).toEqual(['m1']);
    const failed = await job(user.key, queued.id);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('model overloaded') });
    expect((await eventsOf(user.key, 'suggestion.failed')).map((e) => [e.actor, e.data.object])).toEqual([[SUGGESTIONS_JOB, failed]]);
  });

  it('fails a job whose message was dead-lettered, once', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Plan the launch' });
    await deliver(DEAD_LETTERS, [{ id: 'd1', body: suggestionMessage(queued.id), attempts: SUGGESTION_MAX_RETRIES + 1 }]);
    const failed = await job(user.key, queued.id);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('after several attempts') });
    // A second dead letter, or a late delivery, changes nothing.
    await deliver(DEAD_LETTERS, [{ id: 'd2', body: suggestionMessage(queued.id) }]);
    await deliver(QUEUE, [{ id: 'm1', body: suggestionMessage(queued.id) }]);
    expect(await job(user.key, queued.id)).toEqual(failed);
    expect((await eventsOf(user.key, 'suggestion.failed')).map((e) => [e.actor, e.data.object])).toEqual([[SUGGESTIONS_JOB, failed]]);
    expect(await eventsOf(user.key, 'suggestion.completed')).toEqual([]);
  });

  it('validates input, including someone else\'s project', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const theirs = await createProject(other.key);
    const res = await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: '', kind: 'poem' } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual(['kind', 'task']);
    const long = await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: 'x'.repeat(2001) } });
    expect(errorPaths(long)).toEqual(['task']);
    const foreign = await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: 'Plan', project_id: theirs.id } });
    expect(errorPaths(foreign)).toEqual(['project_id']);
  });

  it('keeps jobs to their workspace and limits it to 10 a minute', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const queued = await ask(user.key, { task: 'Plan the launch' });
    expectError(await call('GET', `/v1/ai/suggestions/${queued.id}`, { key: other.key }), 404, 'not_found');
    await deliver(QUEUE, [{ id: 'm1', body: suggestionMessage(queued.id) }]);
    expect(await eventsOf(other.key, 'suggestion.completed')).toEqual([]);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: `Task ${i}` } })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    await expectKeyRequired('POST', '/v1/ai/suggest', { task: 'x' });
  });

  it('prices in the minor units of the rate\'s currency: yen and fils as they are', async () => {
    const user = await createUser();
    const tokyo = await createClient(user.key, { name: 'Tokyo Works', currency: 'JPY' });
    // ¥5,000 an hour, 2 steps of 4 h: 8 h × ¥5,000 = ¥40,000, plus 15 % = ¥46,000.
    const yen = await createProject(user.key, { client_id: tokyo.id, hourly_rate: 5_000 });
    const priced = await ask(user.key, { kind: 'pricing', task: 'Design the site and build it', project_id: yen.id });
    await deliver(QUEUE, [{ id: 'jpy', body: suggestionMessage(priced.id) }]);
    expect((await job(user.key, priced.id)).suggestions.slice(1, 3)).toEqual([
      { title: 'Hourly', detail: expect.stringContaining('¥5,000 per hour'), amount: 5_000 },
      { title: 'Fixed price', detail: expect.stringContaining('= ¥46,000'), estimate_hours: 8, amount: 46_000 },
    ]);
    const kuwait = await createClient(user.key, { name: 'Gulf Trading', currency: 'KWD' });
    // 12.345 KWD an hour × 8 h = 98.760 KWD, plus 15 % = 113.574 KWD (half away from zero).
    const fils = await createProject(user.key, { client_id: kuwait.id, hourly_rate: 12_345 });
    const estimate = await ask(user.key, { kind: 'pricing', task: 'Design the site and build it', project_id: fils.id });
    await deliver(QUEUE, [{ id: 'kwd', body: suggestionMessage(estimate.id) }]);
    expect((await job(user.key, estimate.id)).suggestions[2]).toEqual({
      title: 'Fixed price', detail: expect.stringContaining('KWD\u00a0113.574'), estimate_hours: 8, amount: 113_574,
    });
  });

  it('lets members ask and everyone in the workspace read the answer', async () => {
    const team = await workspaceWithEveryRole();
    expectError(await call('POST', '/v1/ai/suggest', { key: team.viewer.key, body: { task: 'Plan the launch' } }), 403, 'forbidden');
    const queued = await ask(team.member.key, { task: 'Plan the launch' });
    await deliver(QUEUE, [{ id: 'm1', body: suggestionMessage(queued.id) }]);
    const done = await job(team.owner.key, queued.id);
    expect(done.status).toBe('completed');
    expect(await job(team.viewer.key, queued.id)).toEqual(done);
    expect((await eventsOf(team.viewer.key, 'suggestion.completed')).map((e) => e.data.object)).toEqual([done]);
  });

  it('marks a job failed when it cannot be queued, as the one who asked', async () => {
    const user = await createUser();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(env.SUGGESTIONS_QUEUE, 'send').mockRejectedValueOnce(new Error('queue down'));
    const res = await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: 'Plan' } });
    expect(res.status).toBe(202);
    const failed = await job(user.key, res.body.id);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('could not be queued') });
    const events = await eventsOf(user.key, 'suggestion.failed');
    expect(events.map((e) => [e.actor, e.data.object])).toEqual([[{ type: 'user', id: user.id, name: 'Test User' }, failed]]);
  });
});

describe('the queue settings', () => {
  it('retry as often as the consumer counts on (wrangler.toml, every environment)', () => {
    expect(consumerMaxRetries(QUEUE)).toEqual([SUGGESTION_MAX_RETRIES, SUGGESTION_MAX_RETRIES]);
  });
});

describe('splitting a task', () => {
  it('finds its parts', () => {
    expect(splitTask('Design the logo; build the site and then launch it.\nWrite a post')).toEqual(['Design the logo', 'build the site', 'launch it', 'Write a post']);
  });
});
