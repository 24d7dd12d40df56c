/** @jsxImportSource hono/jsx */
// The pay button on the hosted invoice page (§16): "Pay <amount> online" while the invoice is open
// with something due and a provider is connected, an amount field when the workspace allows partial
// payments, TEST MODE for the sandbox and Stripe test keys, and a line saying how the last try went,
// all in the invoice's language (§20). Back from a checkout, the thank-you says the payment is on its
// way only while it is: once it is recorded, the panel says so (and, paid in full, that the invoice is).
import type { Context } from 'hono';
import { exponentOf } from '../../lib/currencies';
import { formatMoney } from '../../lib/money';
import { labelsFor } from '../documents/labels/language';
import type { PageExtra } from '../invoices/render/respond';
import { listPaymentAttempts, type PayTarget, payOffer, type RefusalStatus } from './checkout';

const STYLE = `
.pay{margin-top:24px;padding:16px;border:1px solid #dfe2e6;border-radius:10px}
.pay form{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end}
.pay label{display:flex;flex-direction:column;font-size:.9rem;color:#5b6270}
.pay input{font:inherit;padding:10px;border:1px solid #b9bec7;border-radius:8px;min-width:10ch}
.pay button{font:inherit;font-weight:600;padding:12px 20px;border:0;border-radius:8px;background:#1f4fd1;color:#fff;cursor:pointer;width:100%;max-width:360px}
.pay .test-mode{display:inline-block;font-weight:700;letter-spacing:.08em;background:#fff4d6;color:#7a5200;padding:2px 10px;border-radius:6px;margin:0 0 8px}
.pay .notice{margin:0 0 12px}.pay .notice.bad{color:#a32116}.pay .notice.good{color:#17663a}
@media print{.pay{display:none}}
`;

type Notice = { text: string; tone: 'good' | 'bad' };

/** What the page says on the way back from a checkout (`?payment=`), as the invoice stands now. */
async function returnNotice(input: PanelInput, returned: string | undefined): Promise<Notice | undefined> {
  const say = labelsFor(input.locale).pay;
  if (returned === 'canceled') return { text: say.canceled, tone: 'bad' };
  if (returned === 'failed') return { text: say.failed, tone: 'bad' };
  if (returned !== 'success') return undefined;
  if (input.invoice.status === 'paid') return { text: say.paidInFull, tone: 'good' };
  // A part payment: recorded once its checkout's attempt has succeeded (the provider's webhook).
  const [latest] = await listPaymentAttempts(input.ctx, input.invoice.id, 1);
  return { text: latest?.status === 'succeeded' ? say.thanksRecorded : say.thanksPending, tone: 'good' };
}

/** The amount as a plain decimal in the currency's digits ("1234.50"), for the amount field. */
function decimalText(amount: number, currency: string): string {
  const exponent = exponentOf(currency);
  if (!exponent) return String(amount);
  const digits = String(amount).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

export type PanelInput = PayTarget & { token: string; origin: string };

/**
 * The panel for the page, or undefined when there is nothing to show. `message` is a refusal of a
 * press (the provider down, a bad amount), shown in place of the result line with its status.
 */
export async function payPanel(input: PanelInput, c: Context, refusal?: { status: RefusalStatus; message: string }): Promise<PageExtra | undefined> {
  const offer = await payOffer(input);
  const notice = refusal ? { text: refusal.message, tone: 'bad' as const } : await returnNotice(input, c.req.query('payment'));
  if (!offer && !notice) return undefined;
  const { invoice, workspace } = input;
  const say = labelsFor(input.locale).pay;
  const money = (amount: number) => formatMoney(amount, invoice.currency, input.locale);
  const partial = offer && workspace.paymentsAllowPartial;
  return {
    status: refusal?.status,
    // A checkout on this very origin (the sandbox) is 'self' already.
    formAction: offer ? ["'self'", offer.provider.checkoutOrigin(input.ctx.env, input.origin)].filter((source) => source !== input.origin).join(' ') : undefined,
    render: (nonce: string) => (
      <section class="pay" aria-label={say.payOnline}>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
        {offer?.row.testMode && <p class="test-mode">{say.testMode}</p>}
        {notice && <p class={`notice ${notice.tone}`} role="status">{notice.text}</p>}
        {offer && (
          <form method="post" action={`/i/${input.token}/pay`}>
            {partial && (
              <label>
                {say.amountField(invoice.currency)}
                <input name="amount" inputmode="decimal" autocomplete="off" value={decimalText(offer.due, invoice.currency)} />
              </label>
            )}
            <button type="submit">{partial ? say.payOnline : say.payAmount(money(offer.charge))}</button>
          </form>
        )}
      </section>
    ),
  };
}
