// What quotes hand the rooms below them at start (src/registrations.ts): the quote email, whose state
// lives on the quote, attempted whole when the emails consumer gets its message (the code loads on
// the first one); and the quote given back, accepted again, when its converted draft is deleted.
import { registerEmailAttempt } from '../emails/renderers';
import { registerDraftDeleted } from '../invoices/draft-deleted';

registerEmailAttempt('quote', async (env, id) => (await import('./email')).attemptQuoteEmail(env, id));

registerDraftDeleted(async (ctx, invoice) => (invoice.quoteId ? (await import('./released')).quoteReleasedBy(ctx, invoice) : []));
