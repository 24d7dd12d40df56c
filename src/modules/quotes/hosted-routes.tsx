/** @jsxImportSource hono/jsx */
// The quote as the client sees it, with no key (§18, on the rules of §10): /q/<token> (the page),
// /q/<token>/pdf, /q/<token>/view (the first view in a browser), and the two answers the page's own
// forms post, /q/<token>/accept and /q/<token>/decline, each answered 303 back to the page. An
// answer is taken only from the page itself (see `fromThePage`) and only once.
import { and, eq, isNull } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { quotes } from '../../db/schema';
import type { AppEnv } from '../../env';
import { inWorkspace, systemContext, type WorkspaceContext } from '../../lib/context';
import { nowIso, todayIn } from '../../lib/time';
import { requestEnvFor } from '../../middleware/d1-session';
import { hostedPageRateLimit } from '../../middleware/rate-limit';
import { recordEvent } from '../events/record';
import { findInWorkspaceDatabases, HOSTED_PAGE_JOB } from '../invoices/hosted-link';
import { linkOrigin } from '../invoices/links';
import { notFoundPage, pageResponse, pdfResponse } from '../invoices/render/respond';
import { afterAcceptance, type Answer, answerQuote } from './actions';
import { quoteLabels } from '../documents/labels/quote';
import { type QuoteDocument, quoteDocumentOf, quoteLocale } from './document';
import type { QuoteRow } from './serialize';
import { quoteObject, readQuoteWithParties } from './service';

/** The quote a token opens, with its client and workspace, in its workspace's context; one round trip per database asked. */
async function findQuoteByToken(c: Context<AppEnv>, token: string) {
  const hit = await findInWorkspaceDatabases(c.env, token, (name) => requestEnvFor(c, name), (db, hash) => readQuoteWithParties(db, eq(quotes.linkHash, hash)));
  return hit && { ...hit.found, ctx: systemContext(hit.dbEnv, hit.found.quote.workspaceId, HOSTED_PAGE_JOB, hit.found.workspace.timeZone) };
}

/**
 * Whether a post comes from the quote's page itself. Browsers say so in Sec-Fetch-Site; where it is
 * absent (older browsers), the Origin must be the page's own. The page's no-referrer policy makes a
 * browser send `Origin: null` on its own forms, which says nothing about where the post came from
 * (a sandboxed frame on any site sends the same), so null is refused: the answer must be proven.
 */
export function fromThePage(c: Context): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('Origin');
  return origin !== undefined && origin !== 'null' && origin === new URL(c.req.url).origin;
}

const AnswerForms = ({ doc, action }: { doc: QuoteDocument; action: string }) => {
  const q = doc.quoteLabels;
  if (doc.quoteStatus !== 'open') return <p class="outcome" role="status">{doc.outcome}</p>;
  return (
    <>
      <form class="answer accept" method="post" action={`${action}/accept`}>
        <h2>{q.acceptTitle}</h2>
        <label for="name">{q.fullName}</label>
        <input type="text" id="name" name="name" required maxlength={200} autocomplete="name" />
        <label for="po_number">{q.poNumber}</label>
        <input type="text" id="po_number" name="po_number" maxlength={100} />
        <label class="check"><input type="checkbox" name="agree" value="yes" required /> {q.iAccept}</label>
        <button type="submit">{q.acceptButton}</button>
      </form>
      <form class="answer decline" method="post" action={`${action}/decline`}>
        <h2>{q.declineTitle}</h2>
        <label for="reason">{q.reason}</label>
        <textarea id="reason" name="reason" required maxlength={1000} rows={3}></textarea>
        <button type="submit">{q.declineButton}</button>
      </form>
    </>
  );
};

async function showPage(c: Context<AppEnv>, found: NonNullable<Awaited<ReturnType<typeof findQuoteByToken>>>, countView: boolean) {
  const doc = await quoteDocumentOf(c.env, found, linkOrigin(c.env, c.req.url));
  const action = `/q/${c.req.param('token')}`;
  return pageResponse(c, doc, { countView, extra: { render: () => <AnswerForms doc={doc} action={action} />, formAction: "'self'" } });
}

const oneLine = (value: unknown, max: number) => (typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, max) : '');

/** The client's answer from the page: refused unless it comes from the page, then taken once, and 303 back. */
async function answerFromPage(c: Context<AppEnv>, kind: 'accept' | 'decline') {
  const found = await findQuoteByToken(c, c.req.param('token') ?? '');
  if (!found) return notFoundPage(c);
  if (!fromThePage(c)) return c.text(quoteLabels(quoteLocale(found)).onlyFromPage, 403, { 'Cache-Control': 'no-store' });
  const back = `/q/${c.req.param('token')}`;
  const form = (c.req.header('Content-Type') ?? '').match(/^(application\/x-www-form-urlencoded|multipart\/form-data)/) ? await c.req.parseBody() : {};
  const where = { ip: c.req.header('CF-Connecting-IP') ?? null, user_agent: oneLine(c.req.header('User-Agent'), 500) || null };
  let answer: Answer | null = null;
  if (kind === 'accept') {
    const name = oneLine(form.name, 200);
    if (name && form.agree) answer = { accept: { name, po_number: oneLine(form.po_number, 100) || null, method: 'online', at: '', ...where } };
  } else {
    const reason = typeof form.reason === 'string' ? form.reason.replace(/[\u0000-\u0008\u000b-\u001f\u007f]+/g, ' ').trim().slice(0, 1000) : '';
    if (reason) answer = { decline: { reason, at: '', ...where } };
  }
  // An incomplete form (the browser requires every field) or a quote past its validity: back to the page as it stands.
  if (answer && !(found.quote.status === 'open' && found.quote.validUntil < todayIn(found.ctx.timeZone))) {
    const name = 'accept' in answer ? answer.accept.name : ((found.quote.billTo && (JSON.parse(found.quote.billTo) as { name?: string }).name) || 'client');
    const ctx: WorkspaceContext = { ...found.ctx, actor: { type: 'client', id: null, name } };
    const { quote, answered } = await answerQuote(ctx, found.quote.id, answer, found.quote);
    if (answered) await afterAcceptance(ctx, quote, found.quote.linkOrigin ?? linkOrigin(c.env, c.req.url));
  }
  return c.redirect(back, 303);
}

/** The first view in a browser: viewed_at and quote.viewed, once. */
async function recordFirstView(ctx: WorkspaceContext, quote: QuoteRow) {
  if (quote.viewedAt || quote.status === 'draft') return;
  const after = { ...quote, viewedAt: nowIso() };
  await ctx.db.batch([
    ctx.db.update(quotes).set({ viewedAt: after.viewedAt }).where(and(eq(quotes.id, quote.id), inWorkspace(ctx, quotes), isNull(quotes.viewedAt))),
    recordEvent(ctx, 'quote.viewed', quoteObject(after), { ifChanged: true }),
  ]);
}

export const hostedQuoteRoutes = new Hono<AppEnv>()
  .use('*', hostedPageRateLimit)
  .get('/:token', async (c) => {
    const found = await findQuoteByToken(c, c.req.param('token'));
    if (!found) return notFoundPage(c);
    return showPage(c, found, true);
  })
  .get('/:token/pdf', async (c) => {
    const found = await findQuoteByToken(c, c.req.param('token'));
    if (!found) return notFoundPage(c);
    return pdfResponse(c, await quoteDocumentOf(c.env, found, linkOrigin(c.env, c.req.url)));
  })
  .post('/:token/view', async (c) => {
    const found = await findQuoteByToken(c, c.req.param('token'));
    if (!found) return notFoundPage(c);
    await recordFirstView(found.ctx, found.quote);
    return c.body(null, 204, { 'Cache-Control': 'no-store' });
  })
  .post('/:token/accept', (c) => answerFromPage(c, 'accept'))
  .post('/:token/decline', (c) => answerFromPage(c, 'decline'));
