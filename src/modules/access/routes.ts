// Access: the public waitlist and invitation redemption, the operator's admin routes, and the
// caller's own profile and API keys. Mounted under /api.
import { createDb } from '../../lib/db';
import { defineRoute, jsonBody, jsonContent, noContent, withReplayHeader } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, listQuery } from '../../lib/schemas';
import { publicFormRateLimit } from '../../middleware/rate-limit';
import { createKey, listKeys, revokeKey, serializeKey } from './api-keys';
import { ACCEPT_IDEMPOTENCY_HEADER, acceptIdempotency, presentedCaller } from './accept-request';
import { acceptInvitation, createOperatorInvitation, serializeUser } from './invitations';
import { whoAmI } from './me';
import * as S from './schemas';
import { joinWaitlist, listWaitlist, serializeAdminWaitlistEntry } from './waitlist';

const tags = ['Access'];

export const publicAccessRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/waitlist', operationId: 'joinWaitlist', tags, access: 'public', publicLimit: publicFormRateLimit('waitlist'),
      summary: 'Join the waitlist',
      description: 'The same 202 for every email, known or not, so the answer reveals nothing; a known email keeps its first entry.',
      request: { body: jsonBody(S.JoinWaitlistBody) },
      responses: { 202: jsonContent(S.WaitlistReceived, 'Received.') },
    }),
    async (c) => {
      await joinWaitlist(createDb(c.env.DB), c.req.valid('json'));
      return c.json({ status: 'received' as const }, 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invitations/accept', operationId: 'acceptInvitation', tags, access: 'public', errors: [401, 403, 404, 409, 410],
      publicLimit: publicFormRateLimit('accept'),
      summary: 'Redeem an invitation',
      description: 'Redeems any invitation code (`wsi_…`): a signup creates the user, their personal workspace and its owner key; a recovery issues a new owner key for the account\'s personal workspace; a workspace invitation adds you to that workspace (creating your account if the email is new) and answers a key for it. The key is shown once. An invitation to an email that has an account is accepted only with one of its keys, as `Authorization: Bearer wsk_…` (none or unknown: 401 `unauthorized`; another account\'s: 403 `forbidden`). A code works once, even when redeemed concurrently: 409 `invitation_used` after that, 410 `invitation_expired` past its date, 404 when unknown or withdrawn (as when its inviter is removed or loses the right to issue it), 409 `conflict` if you are already a member.',
      parameters: [ACCEPT_IDEMPOTENCY_HEADER],
      request: { body: jsonBody(S.AcceptInvitationBody) },
      responses: { 201: withReplayHeader(jsonContent(S.AcceptedInvitation, 'The user, the workspace the key acts in, and the key.')) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const [caller, idempotency] = await Promise.all([presentedCaller(c), acceptIdempotency(c.req.header('Idempotency-Key'), body)]);
      const { user, workspace, key, replayed } = await acceptInvitation(c.env, createDb(c.env.DB), body, caller, idempotency);
      if (replayed) c.header('Idempotent-Replayed', 'true');
      return c.json({ user: serializeUser(user), workspace, api_key: { ...serializeKey(key.row), key: key.key } }, 201);
    },
  );

export const adminRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/waitlist', operationId: 'listWaitlist', tags: ['Admin'], access: 'admin',
      summary: 'List the waitlist',
      request: { query: S.WaitlistQuery },
      responses: { 200: jsonContent(S.WaitlistPage, 'A page of waitlist entries.') },
    }),
    async (c) => {
      const { limit, cursor, status } = c.req.valid('query');
      const rows = await listWaitlist(createDb(c.env.DB), { status, limit, beforeId: decodeCursor(cursor, 'waitlist') });
      return c.json(toPage(rows, limit, serializeAdminWaitlistEntry), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invitations', operationId: 'createInvitation', tags: ['Admin'], access: 'admin',
      summary: 'Invite someone',
      description: 'The code is shown once. `kind` follows from whether the email has an account.',
      request: { body: jsonBody(S.CreateInvitationBody) },
      responses: { 201: jsonContent(S.Invitation, 'The invitation, with its code.') },
    }),
    async (c) => c.json(await createOperatorInvitation(c.env, createDb(c.env.DB), c.req.valid('json')), 201),
  );

export const accountRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/me', operationId: 'getMe', tags, access: 'user', role: 'any',
      summary: 'The caller',
      description: 'The key\'s user, its workspace and your role there, and every workspace you belong to.',
      responses: { 200: jsonContent(S.Me, 'Who you are and where you act.') },
    }),
    async (c) => c.json(await whoAmI(c.get('ctx')), 200),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/keys', operationId: 'listApiKeys', tags, access: 'user', role: 'any',
      summary: 'List API keys',
      description: 'Your own keys in this key\'s workspace, revoked ones with `revoked_at`; never a secret.',
      request: { query: listQuery },
      responses: { 200: jsonContent(S.KeyPage, 'A page of keys.') },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const rows = await listKeys(c.get('ctx'), limit, decodeCursor(cursor, 'key'));
      return c.json(toPage(rows, limit, serializeKey), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/keys', operationId: 'createApiKey', tags, access: 'user', role: 'any',
      summary: 'Create an API key',
      description: 'A key for you in this key\'s workspace.',
      request: { body: jsonBody(S.CreateKeyBody) },
      responses: { 201: jsonContent(S.NewApiKey, 'The new key, secret included.') },
    }),
    async (c) => c.json(await createKey(c.get('ctx'), c.req.valid('json').name), 201),
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/keys/{id}', operationId: 'revokeApiKey', tags, access: 'user', role: 'any', errors: [409],
      summary: 'Revoke an API key',
      description: 'Revoking your last active key (over all your workspaces) is 409 `conflict`: it would lock you out.',
      request: { params: idParams('key') },
      responses: { 204: noContent },
    }),
    async (c) => {
      await revokeKey(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
