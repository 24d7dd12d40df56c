// Proposals on the gig board (§24), under /v1: a workspace sends one to another's gig and reads,
// lists and withdraws its own; the poster lists its gig's, declines and accepts them. Whatever a
// change tells the other workspace (events relayed to its database, emails) goes after the answer.
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { createDb } from '../../lib/db';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { requestEnvFor } from '../../middleware/d1-session';
import { acceptProposal } from './accept';
import { declineProposal, withdrawProposal } from './answers';
import { type Aftermath, finishAftermath } from './notify';
import { propose } from './propose';
import { getProposal, listGigProposals, listSentProposals } from './reads';
import * as S from './schemas';
import { type ProposalRow, serializeProposal } from './serialize';

const tags = ['Gigs'];
const proposal = (description: string) => jsonContent(S.Proposal, description);

/** The answer, with what the change leaves to do sent on its way after it. */
function answered(c: Context<AppEnv>, result: { row: ProposalRow; aftermath: Aftermath }) {
  const work = finishAftermath(c.env, result.aftermath).catch((err) =>
    console.warn(JSON.stringify({ level: 'warn', message: 'proposal events or emails not sent on; the cron will', reason: String(err) })),
  );
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context (a direct app.request): the cron relays and sends them.
  }
  return serializeProposal(result.row);
}

export const proposalRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/gigs/{id}/proposals', operationId: 'createProposal', tags, access: 'user', role: 'member', errors: [409, 429],
      summary: 'Send a proposal for a gig',
      description: `Another workspace's open gig (your own, or a closed one: 409). One live proposal per gig (409 naming it); ${S.PROPOSALS_PER_DAY} a day (429). The poster sees your workspace and name, never your email.`,
      request: { params: idParams('gig'), body: jsonBody(S.CreateProposalBody) },
      responses: { 201: proposal('The proposal, submitted.') },
    }),
    async (c) => c.json(answered(c, await propose(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/gigs/{id}/proposals', operationId: 'listGigProposals', tags, access: 'user', role: 'viewer',
      summary: 'List the proposals for your gig',
      request: { params: idParams('gig'), query: S.GigProposalQuery },
      responses: { 200: jsonContent(S.ProposalPage, 'A page of proposals.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listGigProposals(c.get('ctx'), c.req.valid('param').id, { ...query, beforeId: decodeCursor(query.cursor, 'proposal') });
      return c.json(toPage(rows, query.limit, serializeProposal), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/gigs/{id}/proposals/{pid}/decline', operationId: 'declineProposal', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Decline a proposal for your gig',
      description: 'Submitted ones only (409). The sender is told.',
      request: { params: S.GigProposalParams, body: jsonBody(S.DeclineProposalBody) },
      responses: { 200: proposal('The proposal, declined.') },
    }),
    async (c) => {
      const { id, pid } = c.req.valid('param');
      return c.json(answered(c, await declineProposal(c.get('ctx'), id, pid, c.req.valid('json').reason ?? null)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/gigs/{id}/proposals/{pid}/accept', operationId: 'acceptProposal', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Accept a proposal for your gig',
      description: 'Once per gig (409 after). Closes the gig and declines the others; makes a client (from your issuer), a project and a draft quote in the sender\'s workspace, named in `client_id`, `project_id`, `quote_id`. You then see the sender\'s business name and email.',
      request: { params: S.GigProposalParams },
      responses: { 200: proposal('The proposal, accepted.') },
    }),
    async (c) => {
      const { id, pid } = c.req.valid('param');
      const result = await acceptProposal(c.get('ctx'), id, pid, (database) => createDb(requestEnvFor(c, database).DB));
      return c.json(answered(c, result), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/proposals', operationId: 'listProposals', tags, access: 'user', role: 'viewer',
      summary: 'List the proposals your workspace sent',
      request: { query: S.ProposalQuery },
      responses: { 200: jsonContent(S.ProposalPage, 'A page of proposals.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listSentProposals(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'proposal') });
      return c.json(toPage(rows, query.limit, serializeProposal), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/proposals/{id}', operationId: 'getProposal', tags, access: 'user', role: 'viewer',
      summary: 'Get a proposal',
      description: 'One your workspace sent or received.',
      request: { params: idParams('proposal') },
      responses: { 200: proposal('The proposal.') },
    }),
    async (c) => c.json(serializeProposal(await getProposal(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/proposals/{id}/withdraw', operationId: 'withdrawProposal', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Withdraw a proposal you sent',
      description: 'Submitted ones only (409). The poster is told.',
      request: { params: idParams('proposal') },
      responses: { 200: proposal('The proposal, withdrawn.') },
    }),
    async (c) => c.json(answered(c, await withdrawProposal(c.get('ctx'), c.req.valid('param').id)), 200),
  );
