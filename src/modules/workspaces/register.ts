// What workspaces hand the rooms below them at start (src/registrations.ts): the copy of a joining
// member's user row that the event relay writes into the workspace's database (mirror.ts).
import { registerRelayHandler } from '../events/relay-handlers';

// The code loads on the first relay that copies a member, so a worker started for a request does not
// build the tables it writes (nor drizzle with them).
registerRelayHandler('mirrorUser', async () => (await import('./mirror')).mirrorUser);
