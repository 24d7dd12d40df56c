// §21: the workspace's inbound email address, mounted under /api.
import { z } from '@hono/zod-openapi';
import { defineRoute, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { inboundAddress, rotateInboundAddress } from './inbound-address';

const tags = ['Inbound documents'];
const InboundAddress = z
  .object({ address: z.string().openapi({ example: '3f9c0a7d2b6e41c8a05d9e7f1b@inbound.workspace.example' }) })
  .openapi('InboundAddress');

export const inboundAddressRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/workspace/inbound-address', operationId: 'getInboundAddress', tags, access: 'user', role: 'member',
      summary: 'The workspace\'s inbound email address',
      description: 'PDF, XML and image attachments of mail sent here become inbound documents (`source: "email"`); at most 20 attachments and 25 MB a message.',
      responses: { 200: jsonContent(InboundAddress, 'The address.') },
    }),
    async (c) => c.json({ address: await inboundAddress(c.get('ctx')) }, 200),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/workspace/inbound-address/rotate', operationId: 'rotateInboundAddress', tags, access: 'user', role: 'admin',
      summary: 'Replace the inbound email address',
      description: 'Mail to the old address is refused from now on.',
      responses: { 200: jsonContent(InboundAddress, 'The new address.') },
    }),
    async (c) => c.json({ address: await rotateInboundAddress(c.get('ctx')) }, 200),
  );
