// A workspace invitation's code (§9): `wsi_` + a token derived from the invitation's id under the
// server secret, so it is stored nowhere (only its hash, to find the invitation) and shown to no
// one: the email to the invitee is composed with it when it is sent, and only there.
import { serverToken } from '../../lib/server-token';

export const workspaceInvitationCode = async (env: Env, invitationId: string) => `wsi_${await serverToken(env, `invitation:${invitationId}`)}`;
