// The hosted invoice link (§10): `<origin>/i/<token>`. The token is HMAC-SHA256 of the invoice id
// and its link version under INVOICE_LINK_SECRET (256 bits no one can guess), so the same link shows
// on every read without the token being stored; only its SHA-256 is, to find the invoice by it.
// Rotating the link bumps the version: the old token's hash matches nothing from then on.
import { config } from '../../config';
import { sha256Hex } from '../../lib/crypto';
import { serverToken } from '../../lib/server-token';

// The message is `<invoice id>:<version>`, the form links have had since they were first derived.
export const linkToken = (env: Env, invoiceId: string, version: number) => serverToken(env, `${invoiceId}:${version}`);

/** What is stored to find an invoice by its token. */
export const linkHash = (token: string) => sha256Hex(token);

/** A token's shape: 43 base64url characters. Anything else is not one of ours. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The origin links are built on: PUBLIC_URL when set, else the request's. */
export const linkOrigin = (env: Env, requestUrl: string) => config(env).PUBLIC_URL ?? new URL(requestUrl).origin;

export type InvoiceLinks = { hosted_url: string | null; pdf_url: string | null };

/** The links of an invoice that has been sent; null for a draft. */
export async function invoiceLinks(env: Env, origin: string, row: { id: string; linkVersion: number | null }): Promise<InvoiceLinks> {
  if (row.linkVersion === null) return { hosted_url: null, pdf_url: null };
  const hosted = `${origin}/i/${await linkToken(env, row.id, row.linkVersion)}`;
  return { hosted_url: hosted, pdf_url: `${hosted}/pdf` };
}
