// Gigs and proposals between workspaces, through the API, for the proposal tests (§24).
import { env } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import { call } from '../helpers/api';
import { deliver } from '../helpers/worker';

export const gigBody = (over: Record<string, unknown> = {}) => ({
  title: 'Logo for a bakery',
  description: 'A logo and a small style guide for a neighbourhood bakery.',
  skills: ['logo design'],
  budget_type: 'fixed',
  budget_min: 50_000,
  budget_max: 120_000,
  currency: 'EUR',
  ...over,
});

export const proposalBody = (over: Record<string, unknown> = {}) => ({
  message: 'I designed logos for two bakeries in Berlin.',
  rate: { type: 'fixed', amount: 90_000 },
  estimate_hours: 12,
  links: ['https://portfolio.example.com/bakeries'],
  ...over,
});

export async function postGig(key: string, over: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/gigs', { key, body: gigBody(over) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; title: string; proposals_count: number };
}

export async function sendProposal(key: string, gigId: string, over: Record<string, unknown> = {}) {
  const res = await call('POST', `/v1/gigs/${gigId}/proposals`, { key, body: proposalBody(over) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Record<string, any> & { id: string };
}

/** The emails queue's messages, captured so the test delivers them when it chooses. */
export function capturedEmails() {
  const queued: unknown[] = [];
  vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
    for (const m of batch) queued.push(m.body);
    return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
  });
  return queued;
}

export type LoggedEmail = { to: string[]; subject: string; text: string; reply_to: string | null };

/**
 * Delivers the queued emails through the `log` provider; answers what it sent to `recipients` (the
 * runtime's own queue may deliver other tests' messages meanwhile, and log them too).
 */
export async function deliverLogged(queued: unknown[], recipients: string[]): Promise<LoggedEmail[]> {
  const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
  await deliver('workspace-emails', queued.splice(0).map((body, i) => ({ id: `p${i}`, body })));
  const emails = logged.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('email (log provider'));
  logged.mockRestore();
  return emails.map((line) => JSON.parse(line) as LoggedEmail).filter((email) => email.to.some((to) => recipients.includes(to)));
}

/** The workspace's events of one type, newest first. */
export async function eventsOf(key: string, type: string) {
  const res = await call('GET', `/api/events?type=${type}&limit=100`, { key });
  expect(res.status).toBe(200);
  return res.body.data as { type: string; actor: { type: string; id: string | null; name: string }; data: { object: Record<string, any> } }[];
}
