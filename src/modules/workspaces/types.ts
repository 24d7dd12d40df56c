import type { z } from '@hono/zod-openapi';
import type { CreateWorkspaceInvitationBody, UpdateWorkspaceBody } from './schemas';

export type UpdateWorkspaceInput = z.infer<typeof UpdateWorkspaceBody>;
export type CreateWorkspaceInvitationInput = z.infer<typeof CreateWorkspaceInvitationBody>;
