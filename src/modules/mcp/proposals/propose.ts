// The first call of a tool that moves money or reaches the client: it reads what the sentence
// needs, stores the request as a proposal and does nothing else. A client that can show a form is
// asked there and then (the answer streams back once the person chose); any other gets the
// proposal, to show the person and confirm with confirmProposal.
import { eq } from 'drizzle-orm';
import { workspaces } from '../../../db/schema/workspaces';
import type { McpCall } from '../call';
import type { Operation } from '../tools/catalogue';
import { failure, type ToolResult } from '../tools/results';
import type { OperationRequest } from '../tools/run-operation';
import { awaitAnswer, confirm, expire } from './decide';
import { needsAYes } from './needs-a-yes';
import { createProposal, type Proposal, proposalAnswer } from './store';
import { proposalSummary, ReadFailed } from './summaries';

/** A result that comes after the server's own requests to the client, on an SSE stream. */
export type Streamed = {
  stream: (send: (message: Record<string, unknown>) => Promise<void>, closed: () => boolean) => Promise<ToolResult>;
};

const proposed = (proposal: Proposal): ToolResult => ({
  content: [{ type: 'text', text: `Proposed, not done: ${proposal.summary} Show this to the user; if they agree, call confirmProposal with proposal_id "${proposal.id}" before ${proposal.expiresAt}.` }],
  structuredContent: proposalAnswer(proposal),
});

export async function propose(call: McpCall, operation: Operation, request: OperationRequest, args: Record<string, unknown>): Promise<ToolResult | Streamed> {
  if (!needsAYes(operation.name)) throw new Error(`${operation.name} needs no yes`);
  const ctx = await call.context();
  const workspace = await ctx.directory.select({ locale: workspaces.locale }).from(workspaces).where(eq(workspaces.id, ctx.workspaceId)).get();
  let summary: string;
  try {
    summary = await proposalSummary(operation.name, args, call.run, workspace?.locale ?? 'en-US');
  } catch (err) {
    if (err instanceof ReadFailed) return failure(err.answer.text);
    throw err;
  }
  const search = request.query?.size ? `?${request.query}` : '';
  const proposal = await createProposal(ctx, operation.name, { method: request.method, path: `${request.path}${search}`, body: request.body }, summary);
  if (!call.session.elicitation || !call.canStream) return proposed(proposal);
  return {
    stream: async (send, closed) => {
      // The question's id is the proposal's: the answer names what it answers, whichever isolate gets it.
      await send({
        jsonrpc: '2.0', id: proposal.id, method: 'elicitation/create',
        params: { ...(call.version === '2025-06-18' ? {} : { mode: 'form' }), message: summary, requestedSchema: { type: 'object', properties: {} } },
      });
      const answered = await awaitAnswer(ctx, proposal, call.primary(), closed);
      const operations = await call.operations();
      if (answered.status === 'accepted' || answered.status === 'confirmed') {
        return confirm(ctx, call.run, proposal.id, (tool) => operations.get(tool), call.requestId);
      }
      if (answered.status === 'declined') {
        return { content: [{ type: 'text', text: `The user declined: nothing was done. (${proposal.summary})` }], structuredContent: proposalAnswer(proposal) };
      }
      // No answer in time: the proposal lapses. (A client that went away leaves it to confirmProposal until then.)
      if (Date.now() >= Date.parse(proposal.expiresAt)) await expire(ctx, answered);
      return { content: [{ type: 'text', text: `No answer before ${proposal.expiresAt}: nothing was done.` }], structuredContent: proposalAnswer(proposal) };
    },
  };
}

