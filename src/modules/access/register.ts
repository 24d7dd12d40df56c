// What access hands the rooms below it at start (src/registrations.ts): the invitation email, whose
// state lives on the invitation, attempted whole when the emails consumer gets its message. The code
// loads on the first one.
import { registerEmailAttempt } from '../emails/renderers';

registerEmailAttempt('invitation', async (env, id) => (await import('./invitation-email')).attemptInvitationEmail(env, id));
