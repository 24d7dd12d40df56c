// Workspaces, their settings, members and invitations (§9), mounted under /api.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, listQuery } from '../../lib/schemas';
import { serializeKey } from '../access/api-keys';
import { createWorkspace } from './create';
import { inviteToWorkspace, listPendingInvitations, serializeWorkspaceInvitation, withdrawInvitation } from './invitations';
import { serializeMember } from '../access/member';
import { changeRole, listMembers, removeMember } from './members';
import * as S from './schemas';
import { getWorkspace, listMyWorkspaces, serializeWorkspace, updateWorkspace } from './settings';

const tags = ['Workspaces'];

export const workspaceRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/workspaces', operationId: 'listWorkspaces', tags, access: 'user', role: 'any',
      summary: 'Your workspaces',
      description: 'Every workspace you belong to, with your role in each.',
      request: { query: listQuery },
      responses: { 200: jsonContent(S.WorkspacePage, 'A page of workspaces.') },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const rows = await listMyWorkspaces(c.get('ctx'), limit, decodeCursor(cursor, 'workspace'));
      const page = toPage(rows.map((r) => ({ ...r, id: r.workspace.id })), limit, (r) => serializeWorkspace(r.workspace, r.role));
      return c.json(page, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/workspaces', operationId: 'createWorkspace', tags, access: 'user', role: 'any',
      summary: 'Create a workspace',
      description: 'You become its owner. The answer carries a new key that acts in it, shown once. One person owns at most 10 workspaces, their personal one included (409 `conflict` past that); request quotas count per person over all of them.',
      request: { body: jsonBody(S.CreateWorkspaceBody) },
      responses: {
        201: jsonContent(S.CreatedWorkspace, 'The workspace and a key for it.'),
      },
    }),
    async (c) => {
      const { workspace, key } = await createWorkspace(c.get('ctx'), c.req.valid('json').name);
      return c.json({ workspace: serializeWorkspace(workspace, 'owner'), api_key: { ...serializeKey(key.row), key: key.key } }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/workspace', operationId: 'getWorkspace', tags, access: 'user', role: 'any',
      summary: 'The key\'s workspace and its settings',
      responses: { 200: jsonContent(S.Workspace, 'The workspace.') },
    }),
    async (c) => c.json(serializeWorkspace(await getWorkspace(c.get('ctx')), c.get('ctx').role), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/workspace', operationId: 'updateWorkspace', tags, access: 'user', role: 'admin',
      summary: 'Change the workspace\'s settings',
      description: 'Fields sent replace their values; a bad value is a 422 naming the field and changes nothing.',
      request: { body: jsonBody(S.UpdateWorkspaceBody) },
      responses: { 200: jsonContent(S.Workspace, 'The workspace as it is now.') },
    }),
    async (c) => c.json(serializeWorkspace(await updateWorkspace(c.get('ctx'), c.req.valid('json')), c.get('ctx').role), 200),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/workspace/members', operationId: 'listMembers', tags, access: 'user', role: 'any',
      summary: 'The workspace\'s members',
      description: 'Oldest first. Admins see members, never their keys.',
      request: { query: S.MemberQuery },
      responses: { 200: jsonContent(S.MemberPage, 'A page of members.') },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const rows = await listMembers(c.get('ctx'), limit, decodeCursor(cursor, 'membership'));
      return c.json(toPage(rows, limit, serializeMember), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/workspace/members/{id}', operationId: 'updateMember', tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Change a member\'s role',
      description: 'Granting or taking `owner` needs the owner role (403 otherwise). Demoting the last owner is 409 `conflict`: make another member owner first. The member\'s keys act with the new role at once.',
      request: { params: idParams('membership'), body: jsonBody(S.UpdateMemberBody) },
      responses: { 200: jsonContent(S.Member, 'The member with the new role.') },
    }),
    async (c) => c.json(serializeMember(await changeRole(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').role)), 200),
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/workspace/members/{id}', operationId: 'removeMember', tags, access: 'user', role: 'any', errors: [403, 409],
      summary: 'Remove a member, or leave',
      description: 'An admin removes a member (an owner only by an owner); anyone may remove themself (leave). Every key of that member in this workspace stops working at once. Removing the last owner is 409 `conflict`.',
      request: { params: idParams('membership') },
      responses: { 204: noContent },
    }),
    async (c) => {
      await removeMember(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/workspace/invitations', operationId: 'createWorkspaceInvitation', tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Invite someone into the workspace',
      description: 'The code (`wsi_…`) goes only to the invitee, by email (kind `invitation`), who redeems it with POST /api/invitations/accept (with one of their keys, when the email already has an account). The invitation lives while you may issue it: removing you, or demoting you below admin (below owner, for an owner invitation), withdraws it. Inviting an `owner` needs the owner role (403); inviting a member is 409 `conflict`.',
      request: { body: jsonBody(S.CreateWorkspaceInvitationBody) },
      responses: { 201: jsonContent(S.WorkspaceInvitation, 'The invitation; its code is emailed to the invitee only.') },
    }),
    async (c) => c.json(await inviteToWorkspace(c.get('ctx'), c.req.valid('json')), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/workspace/invitations', operationId: 'listWorkspaceInvitations', tags, access: 'user', role: 'admin',
      summary: 'Pending invitations',
      description: 'Not yet accepted, withdrawn or expired; never with their codes.',
      request: { query: listQuery },
      responses: { 200: jsonContent(S.WorkspaceInvitationPage, 'A page of invitations.') },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const rows = await listPendingInvitations(c.get('ctx'), limit, decodeCursor(cursor, 'invitation'));
      return c.json(toPage(rows, limit, serializeWorkspaceInvitation), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/workspace/invitations/{id}', operationId: 'withdrawWorkspaceInvitation', tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Withdraw an invitation',
      description: 'Its code answers 404 from now on. An accepted one is 409 `invalid_state`.',
      request: { params: idParams('invitation') },
      responses: { 204: noContent },
    }),
    async (c) => {
      await withdrawInvitation(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
