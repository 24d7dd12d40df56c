// The pay button's press (§16): a payment attempt for an amount, and the provider's checkout to
// send the client to. An open attempt for the same amount is reused (a second press, a back
// button); a provider that is down or answers garbage leaves the invoice as it was and the
// attempt failed, with words the client can read on the page.
import { and, desc, eq, gt, lt } from 'drizzle-orm';
import { paymentAttempts } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { exponentOf } from '../../lib/currencies';
import { newId } from '../../lib/ids';
import { formatMoney, toScaledInteger } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { labelsFor } from '../documents/labels/language';
import { amountDue, type InvoiceRow } from '../invoices/serialize';
import { connectedProvider, type ProviderRow, secretsOf } from './connection';
import type { PaymentProvider } from './providers/provider';
import type { AttemptRow } from './serialize';

/** `locale`: the invoice's (§20), in which the page speaks, shows amounts and reads a typed one. */
export type PayTarget = { ctx: WorkspaceContext; invoice: InvoiceRow; workspace: { paymentsAllowPartial: boolean }; locale: string; clientEmail: string | null };

/** A press the page answers itself: a body it could not read (400, 413, 415), or why nothing can be paid. */
export type RefusalStatus = 400 | 404 | 409 | 413 | 415 | 422 | 502;

export type PressOutcome = { kind: 'redirect'; url: string } | { kind: 'refused'; status: RefusalStatus; message: string };

/** What the pay button offers now, or why there is none: the provider, the amount due, the step. */
export async function payOffer(target: PayTarget) {
  const { invoice } = target;
  if (invoice.status !== 'open') return undefined;
  const due = amountDue(invoice);
  if (due <= 0) return undefined;
  const connected = await connectedProvider(target.ctx);
  if (!connected) return undefined;
  return { ...connected, due, charge: fullCharge(connected.provider, due, invoice.currency) };
}

/** The amount due as the provider can charge it: up to its next step (KWD at Stripe: 0.010). */
const fullCharge = (provider: PaymentProvider, due: number, currency: string) => {
  const step = provider.chargeStep(currency);
  return Math.ceil(due / step) * step;
};

/**
 * A decimal as a client types it in minor units, exactly; undefined if it is not one. Read as the
 * invoice's locale writes numbers ("1,000.50" in en-US, "1.000,50" in de-DE), and forgiving where
 * that is unambiguous: with both "." and "," the last one is the decimal mark; a lone mark is a
 * thousands separator only where the locale uses it so and groups of three digits follow it.
 */
export function parseTypedAmount(typed: string, currency: string, locale = 'en-US'): number | undefined {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234.5);
  const decimalMark = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  let text = typed.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (!/^\d[\d.,]*$/.test(text)) return undefined;
  const marks = [...new Set(text.match(/[.,]/g) ?? [])];
  if (marks.length === 2) {
    const decimal = text.lastIndexOf('.') > text.lastIndexOf(',') ? '.' : ',';
    text = text.replaceAll(decimal === '.' ? ',' : '.', '').replace(decimal, '.');
  } else if (marks.length === 1) {
    const mark = marks[0]!;
    const grouping = mark !== decimalMark && new RegExp(`^\\d{1,3}(\\${mark}\\d{3})+$`).test(text);
    text = grouping ? text.replaceAll(mark, '') : text.replace(mark, '.');
  }
  if (!/^\d{1,16}(\.\d+)?$/.test(text)) return undefined;
  return toScaledInteger(text, exponentOf(currency)) ?? undefined;
}

export async function pressPay(target: PayTarget, typedAmount: string | undefined, urls: { origin: string; hostedUrl: string }): Promise<PressOutcome> {
  const { ctx, invoice } = target;
  const say = labelsFor(target.locale).pay;
  const connected = await connectedProvider(ctx);
  if (!connected) return { kind: 'refused', status: 404, message: say.unavailable };
  if (invoice.status === 'paid') return { kind: 'refused', status: 409, message: say.alreadyPaid(invoice.number) };
  if (invoice.status !== 'open') return { kind: 'refused', status: 409, message: say.nothingToPay(invoice.number) };
  const due = amountDue(invoice);
  if (due <= 0) return { kind: 'refused', status: 409, message: say.nothingToPay(invoice.number) };
  const { provider } = connected;
  const money = (amount: number) => formatMoney(amount, invoice.currency, target.locale);
  const minimum = provider.minimumCharge(invoice.currency);
  let amount = fullCharge(provider, due, invoice.currency);
  if (target.workspace.paymentsAllowPartial && typedAmount !== undefined && typedAmount.trim() !== '') {
    const typed = parseTypedAmount(typedAmount, invoice.currency, target.locale);
    if (typed === undefined) return { kind: 'refused', status: 422, message: say.amountFormat(exponentOf(invoice.currency), money(due)) };
    const step = provider.chargeStep(invoice.currency);
    if (typed < minimum || typed > due) return { kind: 'refused', status: 422, message: say.amountBetween(money(minimum), money(due)) };
    if (typed % step !== 0) return { kind: 'refused', status: 422, message: say.amountStep(invoice.currency, money(step)) };
    amount = typed;
  }
  if (amount < minimum) return { kind: 'refused', status: 422, message: say.belowMinimum(money(due), money(minimum)) };
  const reusable = await openAttempt(ctx, invoice.id, amount, connected.row);
  if (reusable?.checkoutUrl) return { kind: 'redirect', url: reusable.checkoutUrl };
  return startAttempt(target, connected, amount, urls);
}

async function openAttempt(ctx: WorkspaceContext, invoiceId: string, amount: number, row: ProviderRow): Promise<AttemptRow | undefined> {
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.invoiceId, invoiceId), inWorkspace(ctx, paymentAttempts), eq(paymentAttempts.status, 'open'), eq(paymentAttempts.amount, amount),
        eq(paymentAttempts.provider, row.provider), gt(paymentAttempts.expiresAt, new Date(Date.now() + 60_000).toISOString()),
      ),
    )
    .orderBy(desc(paymentAttempts.id))
    .limit(1);
  return attempt;
}

async function startAttempt(
  target: PayTarget,
  connected: { row: ProviderRow; provider: PaymentProvider },
  amount: number,
  urls: { origin: string; hostedUrl: string },
): Promise<PressOutcome> {
  const { ctx, invoice } = target;
  const id = newId('paymentAttempt');
  const result = await connected.provider
    .createCheckout(ctx.env, await secretsOf(ctx.env, connected.row), {
      attemptId: id, invoiceId: invoice.id, workspaceId: ctx.workspaceId, invoiceNumber: invoice.number, amount, currency: invoice.currency,
      customerEmail: target.clientEmail, successUrl: `${urls.hostedUrl}?payment=success`, cancelUrl: `${urls.hostedUrl}?payment=canceled`,
      origin: urls.origin, testMode: connected.row.testMode,
    })
    .catch((err: unknown) => ({ ok: false as const, message: `failed unexpectedly (${err instanceof Error ? err.message : String(err)})` }));
  const now = nowIso();
  const base = { id, workspaceId: ctx.workspaceId, invoiceId: invoice.id, amount, currency: invoice.currency, provider: connected.row.provider, createdAt: now, updatedAt: now };
  if (!result.ok) {
    console.warn(JSON.stringify({ level: 'warn', message: 'checkout not created', attempt_id: id, invoice_id: invoice.id, provider: connected.row.provider, reason: result.message }));
    await ctx.db.insert(paymentAttempts).values({ ...base, status: 'failed', checkoutUrl: null, providerCheckoutId: null, failureMessage: result.message, expiresAt: null });
    return { kind: 'refused', status: 502, message: labelsFor(target.locale).pay.providerDown };
  }
  await ctx.db.insert(paymentAttempts).values({
    ...base, status: 'open', checkoutUrl: result.checkoutUrl, providerCheckoutId: result.checkoutId, failureMessage: null, expiresAt: result.expiresAt,
  });
  return { kind: 'redirect', url: result.checkoutUrl };
}

export async function listPaymentAttempts(ctx: WorkspaceContext, invoiceId: string, limit: number, beforeId?: string) {
  return ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.invoiceId, invoiceId), inWorkspace(ctx, paymentAttempts), beforeId ? lt(paymentAttempts.id, beforeId) : undefined))
    .orderBy(desc(paymentAttempts.id))
    .limit(limit + 1);
}
