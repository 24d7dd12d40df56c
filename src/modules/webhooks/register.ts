// What webhooks hand the rooms below them at start (src/registrations.ts): sending the deliveries that
// events relayed into a workspace's database made there (dispatch.ts).
import { registerRelayHandler } from '../events/relay-handlers';
import { dispatchQuietly } from './dispatch';

registerRelayHandler('dispatchDeliveries', dispatchQuietly);
