// What webhooks hand the rooms below them at start (src/registrations.ts): sending the deliveries that
// events relayed into a workspace's database made there (dispatch.ts).
import { registerRelayHandler } from '../events/relay-handlers';

// The code loads on the first relay, so a worker started for a request does not build it.
registerRelayHandler('dispatchDeliveries', async (env) => (await import('./dispatch')).dispatchQuietly(env));
