// A received email (§21 "Email") parsed into its HTML body and attachments with postal-mime, for the API's email
// handler (src/modules/inbound-documents/email.ts), which decides what counts as a document. The parser is here,
// not in the API, for its size: some 78 KB minified that only a message to an inbound address needs, and that
// every cold start of the API paid for.
import PostalMime from 'postal-mime';
import type { ParsedEmail } from './contract';

export async function parseEmail(raw: ArrayBuffer): Promise<ParsedEmail> {
  const parsed = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  return {
    html: parsed.html ?? null,
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? null,
      mimeType: a.mimeType,
      contentId: a.contentId ?? null,
      content: a.content as ArrayBuffer,
    })),
  };
}
