// What credit notes hand the rooms below them at start (src/registrations.ts): the credit note email
// the emails consumer sends. The code loads on the first one, so a worker started for a request does
// not build it.
import { registerEmailRenderer } from '../emails/renderers';

registerEmailRenderer(['credit_note'], async (ctx, row) => {
  const [{ creditNoteDocument, creditNoteWithParties }, { composeCreditNoteEmail }] = await Promise.all([import('./documents'), import('./email')]);
  const found = await creditNoteWithParties(ctx, row.creditNoteId!);
  return composeCreditNoteEmail(await creditNoteDocument(ctx, found, row.linkOrigin));
});
