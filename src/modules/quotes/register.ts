// What quotes hand the rooms below them at start (src/registrations.ts): the quote email, whose state
// lives on the quote, attempted whole when the emails consumer gets its message. The code loads on
// the first one.
import { registerEmailAttempt } from '../emails/renderers';

registerEmailAttempt('quote', async (env, id) => (await import('./email')).attemptQuoteEmail(env, id));
