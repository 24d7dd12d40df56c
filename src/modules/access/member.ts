// A member of a workspace as the API shows it and as member events carry it: accepting an invitation
// (invitations.ts) makes one, the workspace's member routes list and change them.
import type { Role } from '../../lib/context';

export type MemberRow = { id: string; userId: string; name: string; email: string; role: Role; createdAt: string };

export const serializeMember = (row: MemberRow) => ({
  id: row.id,
  user: { id: row.userId, name: row.name, email: row.email },
  role: row.role,
  created_at: row.createdAt,
});
