// The hosted invoice page shows, under the invoice, the pay panel of the payments module, which
// builds on invoices: payments registers it at start (src/registrations.ts), so this page does not
// import it.
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import type { findByToken } from './hosted-link';
import type { PageExtra } from './render/respond';

export type HostedInvoice = NonNullable<Awaited<ReturnType<typeof findByToken>>>;
export type HostedPanel = (c: Context<AppEnv>, found: HostedInvoice) => Promise<PageExtra | undefined>;

let registered: HostedPanel | undefined;

export function registerHostedPanel(panel: HostedPanel): void {
  registered = panel;
}

// Not registered is a wiring mistake: the page fails loudly rather than lose its pay button.
export function hostedPanel(c: Context<AppEnv>, found: HostedInvoice): Promise<PageExtra | undefined> {
  if (!registered) throw new Error('No hosted invoice panel registered');
  return registered(c, found);
}
