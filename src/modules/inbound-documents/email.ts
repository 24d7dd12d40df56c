// §21 "Email": the worker's email handler (Cloudflare Email Routing) for mail to a workspace's inbound address. Each
// PDF, XML and image attachment becomes an inbound document (`source: "email"`, `from` the sender) through the same
// receiveDocument an upload goes through. Refused (the sender's server gets the reason): an address that is not a
// workspace's (another domain, a made-up or rotated token), a message over 25 MB, one with more than 20 such
// attachments. A message with none is dropped. Loaded on the first message, never by the API's requests. The MIME
// parsing itself is the renderer worker's (src/renderer/parse-email.ts, through the RENDERER service binding), so
// the parser is no part of the API's bundle and cold start; what counts as a document, and every refusal, is here.
import { type EmailAttachment, RENDERER_TIMEOUT_MS } from '../../renderer/contract';
import { systemContext } from '../../lib/context';
import { ApiError } from '../../errors';
import { createDb } from '../../lib/db';
import { databaseBinding, databaseOf, DIRECTORY, withDatabase } from '../../lib/databases';
import { inTime } from '../../lib/in-time';
import { workspaceOfAddress } from './inbound-address';
import { receiveDocument } from './receive';

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
const MAX_ATTACHMENTS = 20;

/** What may be a supplier's document: by declared type or file name (receiveDocument reads the bytes to be sure). */
const DOCUMENT_TYPE = /^(application\/(pdf|xml)|text\/xml|image\/(jpeg|png|webp))$/i;
const DOCUMENT_NAME = /\.(pdf|xml|jpe?g|png|webp)$/i;

/** An attachment that is a document: not one the message's own HTML shows (`cid:`), such as a logo in a signature. */
function documentsOf(attachments: EmailAttachment[], html: string | null): EmailAttachment[] {
  const shown = new Set([...(html ?? '').matchAll(/cid:([^"'\s>)]+)/gi)].map((m) => m[1]!.toLowerCase()));
  return attachments.filter((a) => {
    const contentId = a.contentId?.replace(/^<|>$/g, '').toLowerCase();
    if (contentId && shown.has(contentId)) return false;
    return DOCUMENT_TYPE.test(a.mimeType) || DOCUMENT_NAME.test(a.filename ?? '');
  });
}

const log = (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) =>
  console[level === 'info' ? 'log' : 'warn'](JSON.stringify({ level, message, ...fields }));

export async function receiveEmail(message: ForwardableEmailMessage, env: Env): Promise<void> {
  const workspace = await workspaceOfAddress(env, createDb(databaseBinding(env, DIRECTORY)), message.to);
  if (!workspace) return message.setReject('Unknown address');
  if (message.rawSize > MAX_MESSAGE_BYTES) return message.setReject('Message too large: at most 25 MB');
  const raw = await new Response(message.raw).arrayBuffer();
  // A renderer that cannot be reached, or does not answer, fails the handler, as a parser that threw here did.
  const parsed = await inTime(env.RENDERER.parseEmail(raw), RENDERER_TIMEOUT_MS, () => {
    throw new Error(`Parsing the email took longer than ${RENDERER_TIMEOUT_MS / 1000} s.`);
  });
  const documents = documentsOf(parsed.attachments, parsed.html);
  if (documents.length > MAX_ATTACHMENTS) return message.setReject(`Too many attachments: at most ${MAX_ATTACHMENTS} a message`);
  if (!documents.length) return log('info', 'Inbound email without documents dropped', { workspace_id: workspace.id });
  const ctx = systemContext(withDatabase(env, databaseOf(workspace)), workspace.id, 'inbound email');
  for (const [index, attachment] of documents.entries()) {
    const received = await receiveDocument(ctx, {
      source: 'email',
      bytes: new Uint8Array(attachment.content),
      filename: attachment.filename,
      from: message.from,
    }).catch((error: unknown) => ({ refused: error }));
    if (!('refused' in received)) continue;
    const reason = received.refused instanceof Error ? received.refused.message : String(received.refused);
    log('warn', 'Inbound email attachment refused', { workspace_id: workspace.id, attachment: index + 1, reason });
    // Past the daily limit the rest would be refused alike.
    if (received.refused instanceof ApiError && received.refused.code === 'rate_limited') break;
  }
}
