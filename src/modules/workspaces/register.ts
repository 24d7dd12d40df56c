// What workspaces hand the rooms below them at start (src/registrations.ts): the copy of a joining
// member's user row that the event relay writes into the workspace's database (mirror.ts).
import { registerRelayHandler } from '../events/relay-handlers';
import { mirrorUser } from './mirror';

registerRelayHandler('mirrorUser', mirrorUser);
