// What a press of the pay button sent (§16): the form of the hosted page, with an `amount` field
// when the workspace takes partial payments, or nothing at all. The route is public, so anything
// may arrive instead; whatever it is becomes a 4xx the page can show, never a thrown error: a body
// too large is refused after its first few kilobytes, and only a form (URL-encoded, or multipart
// where a browser was told to send one) is read. A refusal names its reason; the page says it in
// the invoice's language (documents/labels, group `pay`).
import { readAtMost } from '../../lib/bounded-read';

/** Far above the one short field the page's form sends, and far below what would cost to hold. */
export const PAY_FORM_MAX_BYTES = 8 * 1024;

/** Why a form was refused: the name of its notice in the `pay` labels. */
export type PayFormProblem = 'formGarbled' | 'formTooLarge' | 'formNotAForm';

export type PayForm = { ok: true; amount: string | undefined } | { ok: false; status: 400 | 413 | 415; problem: PayFormProblem };

const refused = (status: 400 | 413 | 415, problem: PayFormProblem): PayForm => ({ ok: false, status, problem });
const unreadable = () => refused(400, 'formGarbled');

export async function readPayForm(request: Request): Promise<PayForm> {
  const bytes = await readAtMost(request.body, PAY_FORM_MAX_BYTES).catch(() => undefined);
  if (bytes === undefined) return unreadable();
  if (bytes === null) return refused(413, 'formTooLarge');
  // The button alone (no amount field) sends an empty form; some clients send no body or type for it.
  if (bytes.byteLength === 0) return { ok: true, amount: undefined };
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  let fields: { getAll(name: string): (string | File)[] };
  if (type === 'application/x-www-form-urlencoded') {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return unreadable();
    }
    fields = new URLSearchParams(text);
  } else if (type === 'multipart/form-data') {
    try {
      fields = await new Request('https://form.invalid/', { method: 'POST', headers: { 'Content-Type': request.headers.get('Content-Type')! }, body: bytes }).formData();
    } catch {
      return unreadable();
    }
  } else {
    return refused(415, 'formNotAForm');
  }
  const amounts = fields.getAll('amount');
  if (amounts.length === 0) return { ok: true, amount: undefined };
  const [amount] = amounts;
  if (amounts.length > 1 || typeof amount !== 'string') return unreadable();
  return { ok: true, amount };
}
