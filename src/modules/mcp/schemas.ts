// A proposal as the `mcp.proposal_*` events carry it (store.ts proposalObject writes it).
import { z } from '@hono/zod-openapi';
import { idSchema, timestampSchema } from '../../lib/schemas';

export const McpProposal = z
  .object({
    id: idSchema('mcpProposal'),
    tool: z.string().openapi({ example: 'sendInvoice' }),
    summary: z.string(),
    status: z.enum(['pending', 'accepted', 'confirmed', 'declined', 'expired']),
    key_id: idSchema('key'),
    user_id: idSchema('user'),
    expires_at: timestampSchema,
    created_at: timestampSchema,
    decided_at: timestampSchema.nullable(),
  })
  .openapi('McpProposal', { description: 'What an assistant proposed over MCP, and with which key.' });
