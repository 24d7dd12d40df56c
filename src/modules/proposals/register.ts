// What proposals hand the rooms below them at start (src/registrations.ts): their emails, whose state
// lives in proposal_emails, attempted whole when the emails consumer gets a message (the code loads on
// the first one).
import { registerEmailAttempt } from '../emails/renderers';

registerEmailAttempt('proposal', async (env, id) => (await import('./email')).attemptProposalEmail(env, id));
