import { z } from '@hono/zod-openapi';
import { emailSchema, idSchema, listQuery, longText, pageOf, RoleSchema, text, timestampSchema } from '../../lib/schemas';

export const WaitlistStatus = z.enum(['waiting', 'invited', 'joined']);

export const JoinWaitlistBody = z
  .strictObject({
    email: emailSchema,
    name: text(200).optional(),
    company: text(200).optional(),
    note: longText(2000).optional(),
  })
  .openapi('JoinWaitlist');

export const WaitlistEntry = z
  .object({
    id: idSchema('waitlist'),
    email: z.string(),
    name: z.string().nullable(),
    status: WaitlistStatus,
    created_at: timestampSchema,
  })
  .openapi('WaitlistEntry');

export const WaitlistReceived = z.object({ status: z.literal('received') }).openapi('WaitlistReceived');

export const AdminWaitlistEntry = WaitlistEntry.extend({
  company: z.string().nullable(),
  note: z.string().nullable(),
  updated_at: timestampSchema,
}).openapi('AdminWaitlistEntry');

export const WaitlistQuery = listQuery.extend({ status: WaitlistStatus.optional() });
export const WaitlistPage = pageOf(AdminWaitlistEntry);

export const CreateInvitationBody = z
  .strictObject({
    email: emailSchema,
    expires_in_days: z.number().int().min(1).max(30).default(7),
  })
  .openapi('CreateInvitation');

export const Invitation = z
  .object({
    id: idSchema('invitation'),
    email: z.string(),
    kind: z.enum(['signup', 'recovery']).openapi({
      description: '`signup` for an email with no account (accepting creates the user and their personal workspace); `recovery` for one that has an account (accepting issues a new owner key to its personal workspace).',
    }),
    code: z.string().openapi({ description: 'Shown once. Starts with `wsi_`.', example: 'wsi_x2f…' }),
    expires_at: timestampSchema,
  })
  .openapi('Invitation');

export const AcceptInvitationBody = z
  .strictObject({
    code: z.string().min(1).max(200),
    name: text(200).min(1).optional().openapi({ description: 'Your name: required when accepting creates your account (422 otherwise).' }),
  })
  .openapi('AcceptInvitation');

export const User = z
  .object({ id: idSchema('user'), email: z.string(), name: z.string(), created_at: timestampSchema })
  .openapi('User');

// What every answer about a key shows: a listed key adds when it was revoked, a key just made its
// secret (written once each in /openapi.json, the three answers refer to them).
const ApiKeyFields = z
  .object({
    id: idSchema('key'),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The first characters of the key, to recognise it.', example: 'wsk_Ab3dE5gH' }),
    workspace_id: idSchema('workspace').openapi({ description: 'The workspace the key acts in.' }),
    created_at: timestampSchema,
  })
  .openapi('ApiKeyFields');

export const ApiKey = ApiKeyFields.extend({ revoked_at: timestampSchema.nullable() }).openapi('ApiKey');

export const WorkspaceRef = z
  .object({ id: idSchema('workspace'), name: z.string(), role: RoleSchema })
  .openapi('WorkspaceRef');

/** The key that comes with a new account or workspace: never revoked yet, so without `revoked_at`. */
export const IssuedApiKey = ApiKeyFields.extend({
  key: z.string().nullable().openapi({ description: 'The secret. Shown only in this response; store it now. `null` when the answer is an idempotent replay (`Idempotent-Replayed: true`): secrets are stored only hashed.' }),
}).openapi('IssuedApiKey');

export const NewApiKey = IssuedApiKey.extend({ revoked_at: timestampSchema.nullable() }).openapi('NewApiKey');

export const AcceptedInvitation = z
  .object({ user: User, workspace: WorkspaceRef, api_key: IssuedApiKey })
  .openapi('AcceptedInvitation');

export const Me = z
  .object({
    user: User,
    workspace: WorkspaceRef.openapi({ description: 'The workspace this key acts in, and your role there.' }),
    key: z.object({ id: idSchema('key'), prefix: z.string(), workspace_id: idSchema('workspace') }),
    memberships: z.array(z.object({ workspace_id: idSchema('workspace'), name: z.string(), role: RoleSchema })).openapi({
      description: 'Every workspace you belong to. A key acts in one: make one per workspace (POST /api/keys with a key of that workspace, or POST /api/workspaces).',
    }),
  })
  .openapi('Me');

export const CreateKeyBody = z.strictObject({ name: text(100).min(1) }).openapi('CreateApiKey');
export const KeyPage = pageOf(ApiKey);
