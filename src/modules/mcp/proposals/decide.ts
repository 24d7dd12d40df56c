// A person's yes, two ways. With a client that can show a form, the tool call itself asks
// (`elicitation/create`, answered by a later POST that may reach another isolate) and waits for the
// answer; otherwise confirmProposal performs the proposal. Either way the operation runs once: with the
// proposal's id as its Idempotency-Key, only with the key that proposed it and only before it expires.
import type { ServiceContext } from '../../../lib/context';
import type { Db } from '../../../lib/db';
import type { Operation } from '../tools/catalogue';
import { refusal } from '../tools/envelope';
import { resultOf, type ToolResult } from '../tools/results';
import type { Answer, Runner } from '../tools/run-operation';
import { findProposal, moveProposal, type Proposal } from './store';

// The waits of this isolate's tool calls, by proposal id: an answer that arrives here wakes its wait
// at once; one that reaches another isolate is found by the wait's next look at the database.
const waiting = new Map<string, () => void>();

const sleep = (ms: number, wake: (resolve: () => void) => void) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Waits until the person answered (the proposal is no longer pending) or it expired; answers the
 * proposal as it then stands. `primary` reads the database's primary, where another request's write
 * shows at once.
 */
export async function awaitAnswer(ctx: ServiceContext, proposal: Proposal, primary: Db, closed: () => boolean): Promise<Proposal> {
  const expires = Date.parse(proposal.expiresAt);
  let looks = 0;
  try {
    while (Date.now() < expires && !closed()) {
      // Every second for the first half minute, then every five.
      await sleep(Math.min(looks++ < 30 ? 1000 : 5000, Math.max(0, expires - Date.now())), (wake) => waiting.set(proposal.id, wake));
      const now = await findProposal(ctx, proposal.id, primary);
      if (!now || now.status !== 'pending') return now ?? proposal;
    }
  } finally {
    waiting.delete(proposal.id);
  }
  return proposal;
}

/** The client's answer to the question asked for `id`: recorded when the key that proposed it sends it; ignored otherwise. */
export async function recordAnswer(ctx: ServiceContext, id: string, accepted: boolean): Promise<void> {
  const proposal = await findProposal(ctx, id);
  if (!proposal || proposal.keyId !== ctx.keyId || Date.now() >= Date.parse(proposal.expiresAt)) return;
  await moveProposal(ctx, proposal, ['pending'], accepted ? 'accepted' : 'declined');
  waiting.get(id)?.();
}

/** Marks a proposal past its time as expired (writing `mcp.proposal_expired` once). */
export const expire = (ctx: ServiceContext, proposal: Proposal) => moveProposal(ctx, proposal, ['pending', 'accepted'], 'expired');

const storedAnswer = (proposal: Proposal): Answer => ({ status: proposal.resultStatus ?? 200, contentType: 'application/json', text: proposal.resultBody ?? '' });

/**
 * Performs a proposal: once, then the first answer again. `operation` is the proposed tool's (for
 * the result's wording); `requestId` names this request in a refusal.
 */
export async function confirm(ctx: ServiceContext, run: Runner, id: string, operationOf: (tool: string) => Operation | undefined, requestId: string): Promise<ToolResult> {
  const proposal = await findProposal(ctx, id);
  if (!proposal) return refusal(requestId, 'not_found', 'Proposal not found.');
  if (proposal.keyId !== ctx.keyId) return refusal(requestId, 'forbidden', 'Only the API key that made this proposal can confirm it.');
  const summary = operationOf(proposal.tool)?.summary ?? proposal.tool;
  const uri = `mcp-proposal://${proposal.id}`;
  if (proposal.status === 'confirmed') return resultOf(summary, storedAnswer(proposal), uri);
  if (proposal.status === 'declined') return refusal(requestId, 'invalid_state', 'This proposal was declined; nothing was done. Propose it again if the user now agrees.');
  if (proposal.status === 'expired' || Date.now() >= Date.parse(proposal.expiresAt)) {
    if (proposal.status !== 'expired') await expire(ctx, proposal);
    return refusal(requestId, 'invalid_state', `This proposal expired at ${proposal.expiresAt}; nothing was done. Propose it again.`);
  }
  const answer = await run({ method: proposal.method, path: proposal.path, body: proposal.body === null ? undefined : JSON.parse(proposal.body), idempotencyKey: proposal.id });
  if (answer.status < 400) {
    // A racing confirm that got here first stored the same answer (the Idempotency-Key replayed it).
    await moveProposal(ctx, proposal, ['pending', 'accepted'], 'confirmed', { status: answer.status, body: answer.text });
  }
  return resultOf(summary, answer, uri);
}
