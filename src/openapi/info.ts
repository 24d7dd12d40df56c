// The prose of /openapi.json: the rules that apply to every operation. Wrapped here for reading; a
// single line break is a space in Markdown, so the document carries the paragraphs unwrapped.
const INTRODUCTION = `The back end of a workspace for freelancers and small studios: clients, projects, invoices,
expenses, a dashboard in USD, exchange rates, a public gig board, transfers abroad and an AI co-pilot.

Two listings: \`/api\` (the application API) and \`/v1\` (the versioned platform API). Clients, projects,
invoices (with their payments and credit notes), recurring invoices, quotes and time entries are the same
operations under \`/api/workflow\` and \`/v1\`.

**Access.** Invitation only. Send \`Authorization: Bearer wsk_…\`. Keys are shown once and stored as a hash.
A revoked key stops working at once on the machine that revoked it and within 60 seconds everywhere.

**Workspaces and roles.** Every record belongs to a workspace, and a key acts in exactly one, as its
user with their role there: \`viewer\` reads; \`member\` also writes records; \`admin\` also voids invoices, moves
money and manages people and settings; \`owner\` also grants owner. Each operation states the role it needs
(\`x-required-role\` and its description: "Role: \`member\`."), which admits the roles above it too; a lower one
is 403. Another workspace's record is 404.

**Events.** Every change writes one event in the same transaction (\`GET /api/events\`, kept 30 days), with the
record as the API returned it and who did it.

**Money.** Every money field is an integer count of the currency's minor unit (cents; yen for JPY; fils for
KWD), in an ISO 4217 currency. Quantities, tax rates and discount percents have at most 3 decimals.
Rounding is half away from zero, in integer arithmetic: a line's \`gross = round(quantity × unit_amount)\`,
\`discount_amount = round(gross × discount_percent / 100)\`, \`amount = gross − discount_amount\`;
\`subtotal = Σ amount\`; a document discount is its \`amount\` or \`round(subtotal × percent / 100)\`, split over the
tax groups (category, rate) in proportion to their nets by largest remainder (ties to the earlier group). With
\`tax_rounding: "line"\` each line's \`tax = round(amount × tax_rate / 100)\` and a group's discount share lowers its
tax by \`round(share × rate / 100)\`; with \`"group"\` each group's tax is \`round(taxable_amount × rate / 100)\`.
\`tax = Σ tax_breakdown tax_amount\`, \`total = subtotal − discount_total + tax\`. Conversions round half away
from zero into the target's minor unit; a transfer's \`target_amount\` rounds down.

**Read your writes.** Every answer that read or wrote records, or was sent a bookmark, carries \`X-D1-Bookmark\`.
Send it back and a later request reads at least as fresh as that answer, wherever it is served; without one
(or with a malformed one), keyed requests start at the primary database and the public gig board may read the
nearest replica. A bookmark is about the key's workspace: send it with keys of that workspace.

**Lists** take \`limit\` (1..100, default 25) and \`cursor\` and answer \`{data, has_more, next_cursor}\`, newest first.

**Errors** share one envelope: \`{"error": {"code", "message", "request_id", "details"?}}\`.
An unknown field in a body is a 422. Bodies need \`Content-Type: application/json\` and at most 100 KB.

**Idempotency.** Any keyed POST may carry \`Idempotency-Key\`; money-moving POSTs require it. The same key and body
(as canonical JSON) within 24 hours replays the first answer, with \`Idempotent-Replayed: true\`, secrets \`null\`
and an invoice's links as they are at the replay; another body is 422 \`idempotency_key_reused\`; while the first
request runs, 409 \`conflict\` (at most 60 s). An attempt that failed before changing anything is not kept, so a
corrected retry proceeds; one that made its change is replayed from its record, even if its answer was lost.

**Rate limits.** 120 requests a minute per key and 600 per workspace over all its keys; AI suggestions 10 a
minute per workspace; per client address, the waitlist and invitation accept 10 a minute each and public gig
reads 300; 10 failed operator-token attempts from an address in 10 minutes lock it out of the admin routes for
the rest of them. Past a limit: 429 \`rate_limited\` with \`Retry-After\`, \`RateLimit-Remaining: 0\` and
\`RateLimit-Reset\`. Every response to a limited request carries \`RateLimit-Limit\` and \`RateLimit-Policy\` of the
tightest limit that applies. Counting is per Cloudflare location and approximate, except the admin lockout.

**Request ids.** Every response carries \`X-Request-Id\` (yours, if you sent a sane one).`;

export const OPENAPI_INFO = {
  openapi: '3.1.0',
  info: {
    title: 'Workspace API',
    version: '0.1.0',
    license: { name: 'Proprietary' },
    description: INTRODUCTION.replace(/(?<!\n)\n(?!\n)/g, ' '),
  },
};
