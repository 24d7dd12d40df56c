/** @jsxImportSource hono/jsx */
// The hosted page of a document (§10, §20): the printed form of its value (printed.ts), server-rendered: no framework in the browser. It reads on a 375 px
// phone (lines stack into cards below 600 px) and prints on A4 and Letter (@page margins, no
// links or buttons on paper). Its one script reports the first view; the preview renders without it.
// Every word on it comes from the document's labels, in the invoice's language.
import type { FC } from 'hono/jsx';
import type { PrintedDocument } from './printed';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1f24;background:#f4f5f7}
main{max-width:820px;margin:0 auto;padding:24px 16px}
.sheet{background:#fff;border-radius:10px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0}
.muted{color:#5b6270}
.banner{display:inline-block;font-weight:700;letter-spacing:.08em;padding:4px 12px;border-radius:6px;margin:8px 0}
.banner.PAID{background:#e3f5e8;color:#17663a}.banner.VOID{background:#eee;color:#555}
.banner.Overdue{background:#fdecea;color:#a32116}.banner.DRAFT{background:#fff4d6;color:#7a5200}
.parties{display:grid;grid-template-columns:1fr 1fr;gap:24px;margin:24px 0}
.parties h2,.section h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:#5b6270;margin:0 0 4px}
.parties p{margin:0}
.dates{display:flex;flex-wrap:wrap;gap:8px 32px;margin-bottom:16px}
table{width:100%;border-collapse:collapse}
th,td{padding:8px 6px;text-align:right;vertical-align:top;overflow-wrap:anywhere}
th:first-child,td:first-child{text-align:left}
thead th{font-size:.8rem;color:#5b6270;border-bottom:2px solid #dfe2e6}
tbody td{border-bottom:1px solid #eceef1}
.totals{margin:16px 0 0 auto;max-width:360px}
.totals div{display:flex;justify-content:space-between;gap:16px;padding:4px 0}
.totals .due{font-weight:700;font-size:1.15rem;border-top:2px solid #1c1f24;margin-top:4px;padding-top:8px}
.section{margin-top:24px;white-space:pre-wrap}
.detail{display:block;font-size:.85rem;color:#5b6270}
.taxnotes{margin:12px 0 0 auto;max-width:360px;font-size:.9rem}
.legal{margin-top:32px;border-top:1px solid #dfe2e6;padding-top:12px;font-size:.85rem;color:#5b6270;white-space:pre-wrap}
.actions{margin-top:24px}
.answer{margin-top:24px;padding:16px;border:1px solid #dfe2e6;border-radius:8px}
.answer h2{font-size:1.05rem;margin:0 0 8px}
.answer label{display:block;margin:8px 0 4px}
.answer input[type=text],.answer textarea{width:100%;font:inherit;padding:10px;border:1px solid #b8bec8;border-radius:6px}
.answer .check{display:flex;gap:8px;align-items:center}
.answer button{margin-top:12px;font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:0;background:#1f4fd1;color:#fff;width:100%}
.answer.decline button{background:#5b6270}
.outcome{margin-top:16px;font-weight:600}
.actions a{display:inline-block;padding:10px 18px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none;font-weight:600}
@media (max-width:600px){
  main{padding:12px 8px}.sheet{padding:18px}
  .parties{grid-template-columns:1fr}
  thead{display:none}
  tbody tr{display:block;border-bottom:1px solid #eceef1;padding:6px 0}
  tbody td{display:flex;justify-content:space-between;gap:12px;border:0;padding:2px 0;text-align:right}
  tbody td::before{content:attr(data-label);color:#5b6270;text-align:left}
  tbody td:first-child{display:block;font-weight:600}
  tbody td:first-child::before{content:none}
}
@page{margin:16mm}
@media print{body{background:#fff;font-size:11pt}main{max-width:none;padding:0}.sheet{box-shadow:none;padding:0}.actions{display:none}}
`;

// The first time the page is shown in a browser: a script that fetch-only link scanners never run.
const VIEW_SCRIPT = `if(navigator.sendBeacon){navigator.sendBeacon(location.pathname.replace(/\\/$/,'')+'/view')}else{fetch(location.pathname.replace(/\\/$/,'')+'/view',{method:'POST',keepalive:true})}`;

const Lines: FC<{ lines: string[] }> = ({ lines }) => <>{lines.map((line) => <p>{line}</p>)}</>;

export const InvoicePage: FC<{ doc: PrintedDocument; nonce: string; countView: boolean; children?: unknown }> = ({ doc, nonce, countView, children }) => (
  <html lang={doc.locale}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      {/* No favicon to fetch: the page asks for nothing but itself. */}
      <link rel="icon" href="data:," />
      <title>{doc.title ?? (doc.credit ? doc.labels.creditNoteFrom : doc.labels.invoiceFrom)(doc.number, doc.issuer.legal_name ?? doc.issuer.name)}</title>
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
    </head>
    <body>
      <main>
        <article class="sheet">
          <header>
            <h1>{doc.credit?.title ?? doc.labels.invoice} {doc.number}</h1>
            <p class="muted">{doc.issuer.legal_name ?? doc.issuer.name}</p>
            {doc.banner && <div class={`banner ${doc.banner}`}>{doc.bannerText}</div>}
          </header>
          <section class="parties">
            <div>
              <h2>{doc.labels.from}</h2>
              <p><strong>{doc.issuer.legal_name ?? doc.issuer.name}</strong></p>
              <Lines lines={doc.seller} />
            </div>
            <div>
              <h2>{doc.labels.billTo}</h2>
              <p><strong>{doc.billTo.name}</strong></p>
              <Lines lines={doc.buyer} />
            </div>
          </section>
          <div class="dates">
            <div><span class="muted">{doc.labels.issued} </span>{doc.issueDate}</div>
            {doc.credit ? <div>{doc.credit.corrects}</div> : <div><span class="muted">{doc.labels.due} </span>{doc.dueDate}</div>}
            {doc.serviceDate && <div>{doc.serviceDate}</div>}
            {doc.references.map((reference) => <div>{reference}</div>)}
          </div>
          <table>
            <thead>
              <tr><th>{doc.labels.description}</th><th>{doc.labels.quantity}</th><th>{doc.labels.unitPrice}</th><th>{doc.labels.tax}</th><th>{doc.labels.amount}</th></tr>
            </thead>
            <tbody>
              {doc.lines.map((line) => (
                <tr>
                  <td data-label={doc.labels.description}>{line.description}{line.discount && <span class="detail">{line.discount}</span>}</td>
                  <td data-label={doc.labels.quantity}>{line.quantity}</td>
                  <td data-label={doc.labels.unitPrice}>{line.unitPrice}</td>
                  <td data-label={doc.labels.tax}>{`${line.tax} (${line.taxRate})`}</td>
                  <td data-label={doc.labels.amount}>{line.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="totals">
            <div><span>{doc.labels.subtotal}</span><span>{doc.subtotal}</span></div>
            {doc.discount && <div><span>{doc.discountLabel}</span><span>{doc.discount}</span></div>}
            {doc.netAfterDiscount && <div><span>{doc.labels.netAfterDiscount}</span><span>{doc.netAfterDiscount}</span></div>}
            {doc.taxGroups.map((group) => <div class="muted"><span>{group.label}</span><span>{group.amount}</span></div>)}
            <div><span>{doc.labels.tax}</span><span>{doc.tax}</span></div>
            {doc.payable === false || doc.credit ? (
              <div class="due"><span>{doc.labels.total}</span><span>{doc.total}</span></div>
            ) : (
              <>
                <div><span>{doc.labels.total}</span><span>{doc.total}</span></div>
                {doc.credited && <div><span>{doc.labels.credited}</span><span>{doc.credited}</span></div>}
                <div><span>{doc.labels.paid}</span><span>{doc.amountPaid}</span></div>
                <div class="due"><span>{doc.labels.amountDue}</span><span>{doc.amountDue}</span></div>
              </>
            )}
          </div>
          {doc.taxNotes.length > 0 && <div class="taxnotes">{doc.taxNotes.map((note) => <p>{note}</p>)}</div>}
          {/* What another room adds to the page (the pay button, payments/pay-panel.tsx). */}
          {children}
          {doc.notes && <section class="section"><h2>{doc.labels.notes}</h2>{doc.notes}</section>}
          {(doc.payment || doc.paymentInstructions) && (
            <section class="section">
              <h2>{doc.labels.howToPay}</h2>
              {doc.payment && <Lines lines={doc.payment} />}
              {doc.paymentInstructions && <p>{doc.paymentInstructions}</p>}
            </section>
          )}
          {doc.legalNotes && <footer class="legal">{doc.legalNotes}</footer>}
          {doc.pdfUrl && (
            <p class="actions">
              <a href={doc.pdfUrl}>{doc.labels.downloadPdf}</a>
              {doc.xmlLinks?.map((link) => <>{' · '}<a href={link.url} download>{`${doc.labels.eInvoice} (XML, ${link.format.toUpperCase()})`}</a></>)}
            </p>
          )}
        </article>
      </main>
      {countView && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: VIEW_SCRIPT }} />}
    </body>
  </html>
);

export const NotFoundPage: FC = () => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>Not found</title>
    </head>
    <body>
      <h1>Not found</h1>
      <p>This invoice link does not exist or is no longer valid. Ask the sender for a new one.</p>
    </body>
  </html>
);

/**
 * The page's Content-Security-Policy: nothing but its own nonce'd style and script, and its view
 * report; forms only where `formAction` says (the pay button: 'self' and the provider's checkout,
 * since browsers apply form-action to the redirect too).
 */
export const pageCsp = (nonce: string, formAction = "'none'") =>
  `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
