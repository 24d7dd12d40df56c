// The cold-start yardstick: the smallest app of the same kind as ours, one Hono route answering
// JSON checked by a zod schema. Bundled by the bench with the same esbuild settings wrangler uses.
import { Hono } from 'hono';
import { z } from 'zod';

const Health = z.object({ status: z.literal('ok') });
const app = new Hono();
app.get('/health', (c) => c.json(Health.parse({ status: 'ok' })));

export default app;
