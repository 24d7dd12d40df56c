import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { consumeSuggestions } from '../../src/modules/suggestions/consumer';
import { splitTask } from '../../src/modules/suggestions/providers/local';
import type { SuggestionProvider } from '../../src/modules/suggestions/providers/types';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createClient, createProject, createUser } from '../helpers/factories';
import { deliver } from '../helpers/worker';

const QUEUE = 'workspace-suggestions';

async function ask(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/ai/suggest', { key, body });
  expect(res.status).toBe(202);
  expect(res.headers.get('Location')).toBe(`/v1/ai/suggestions/${res.body.id}`);
  return res.body;
}
const job = async (key: string, id: string) => (await call('GET', `/v1/ai/suggestions/${id}`, { key })).body;

async function runWith(provider: SuggestionProvider, suggestionId: string, attempts = 1) {
  const batch = createMessageBatch(QUEUE, [{ id: 'm1', timestamp: new Date(), body: { suggestion_id: suggestionId }, attempts }]);
  await consumeSuggestions(batch, env, provider);
  return getQueueResult(batch, createExecutionContext());
}

describe('the co-pilot', () => {
  it('queues a plan and completes it through the queue with the local provider', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Redesign the checkout page and add Apple Pay. Then run an A/B test' });
    expect(queued).toEqual({ id: expect.stringMatching(/^sug_/), status: 'queued', kind: 'plan', task: expect.any(String), created_at: expect.any(String) });
    expect((await job(user.key, queued.id)).status).toBe('queued');

    await deliver(QUEUE, [{ id: 'm1', body: { suggestion_id: queued.id } }]);
    const done = await job(user.key, queued.id);
    expect(done).toMatchObject({ status: 'completed', provider: 'local', error: null, completed_at: expect.any(String) });
    expect(done.suggestions.map((s: { title: string }) => s.title)).toEqual([
      'Agree the scope',
      'Step 1: Redesign the checkout page',
      'Step 2: Add Apple Pay',
      'Step 3: Run an A/B test',
      'Review and hand over',
    ]);
    // A redelivery does not run it again.
    const result = await deliver(QUEUE, [{ id: 'm2', body: { suggestion_id: queued.id } }]);
    expect(result.explicitAcks).toEqual(['m2']);
    expect((await job(user.key, queued.id)).completed_at).toBe(done.completed_at);
    // One event, by the job, carrying the finished suggestion.
    const events = (await call('GET', '/api/events?type=suggestion.completed', { key: user.key })).body.data;
    expect(events.map((e: { actor: unknown; data: { object: unknown } }) => [e.actor, e.data.object])).toEqual([[{ type: 'system', id: null, name: 'suggestions' }, done]]);
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
    await deliver(QUEUE, [{ id: 'e', body: { suggestion_id: estimate.id } }]);
    const e = await job(user.key, estimate.id);
    expect(e.suggestions.at(-1)).toEqual({ title: 'Total', detail: expect.stringContaining('USD 110.00/h'), estimate_hours: 8, amount: 88_000 });

    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 15_000, budget: 100_000 });
    const price = await ask(user.key, { kind: 'pricing', task: 'Build the API and write the docs', project_id: project.id });
    await deliver(QUEUE, [{ id: 'p', body: { suggestion_id: price.id } }]);
    const p = await job(user.key, price.id);
    // 8 h × $150 × 1.15 = $1,380.00, over the $1,000 budget.
    expect(p.suggestions).toEqual([
      { title: 'Hourly', detail: expect.stringContaining('USD 150.00'), amount: 15_000 },
      { title: 'Fixed price', detail: expect.any(String), estimate_hours: 8, amount: 138_000 },
      { title: 'Against the budget', detail: expect.stringContaining('exceeds'), amount: 100_000 },
    ]);

    const msg = await ask(user.key, { kind: 'message', task: 'Move the launch to Friday', project_id: project.id });
    await deliver(QUEUE, [{ id: 'x', body: { suggestion_id: msg.id } }]);
    const m = await job(user.key, msg.id);
    expect(m.suggestions[0].detail).toMatch(/^Hi Globex,[\s\S]*for Website before starting/);
  });

  it('fails the job with a reason when the provider answers junk', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Plan the launch' });
    const junk: SuggestionProvider = { name: 'workers-ai', suggest: async () => [{ title: '', detail: 42 }] };
    const result = await runWith(junk, queued.id);
    expect(result.explicitAcks).toEqual(['m1']);
    const failed = await job(user.key, queued.id);
    expect(failed).toMatchObject({ status: 'failed', provider: 'workers-ai', suggestions: [], error: expect.stringContaining('not usable') });
  });

  it('retries a provider that throws, then fails the job when attempts run out', async () => {
    const user = await createUser();
    const queued = await ask(user.key, { task: 'Plan the launch' });
    const down: SuggestionProvider = { name: 'workers-ai', suggest: async () => { throw new Error('model overloaded'); } };
    expect((await runWith(down, queued.id, 1)).retryMessages).toHaveLength(1);
    expect((await job(user.key, queued.id)).status).toBe('queued');
    await runWith(down, queued.id, 3);
    expect(await job(user.key, queued.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('model overloaded') });
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

  it('keeps jobs private and limits each key to 10 a minute', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const queued = await ask(user.key, { task: 'Plan the launch' });
    expectError(await call('GET', `/v1/ai/suggestions/${queued.id}`, { key: other.key }), 404, 'not_found');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: `Task ${i}` } })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    await expectKeyRequired('POST', '/v1/ai/suggest', { task: 'x' });
  });

  it('marks a job failed when it cannot be queued', async () => {
    const user = await createUser();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(env.SUGGESTIONS_QUEUE, 'send').mockRejectedValueOnce(new Error('queue down'));
    const res = await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: 'Plan' } });
    expect(res.status).toBe(202);
    expect((await job(user.key, res.body.id))).toMatchObject({ status: 'failed', error: expect.stringContaining('could not be queued') });
    vi.restoreAllMocks();
  });
});

describe('splitting a task', () => {
  it('finds its parts', () => {
    expect(splitTask('Design the logo; build the site and then launch it.\nWrite a post')).toEqual(['Design the logo', 'build the site', 'launch it', 'Write a post']);
  });
});
