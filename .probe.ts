import { renderInvoicePdf } from './src/modules/invoices/render/pdf';
import { invoiceLabels } from './src/modules/documents/labels/invoice';
const addr = { line1: null, line2: null, city: null, region: null, postal_code: null, country: null };
const doc = (desc: (i: number) => string, notes: string | null) => ({
  number: 'INV-1', status: 'open', banner: null, bannerText: null,
  issuer: { name: 'A', legal_name: null, email: null, address: addr, tax_id: null },
  billTo: { name: 'B', email: null, company: null, address: addr, tax_id: null },
  issueDate: 'x', dueDate: 'y', currency: 'USD',
  lines: Array.from({ length: 100 }, (_, i) => ({ description: desc(i), quantity: '1.5', unitPrice: '$99.99', taxRate: '8.25 %', tax: '$1', amount: '$100' })),
  subtotal: '$1', tax: '$1', total: '$1', amountPaid: '$0', amountDue: '$1', notes, paymentInstructions: null, locale: 'en-US', labels: invoiceLabels('en-US'), hostedUrl: null, pdfUrl: null,
}) as any;
const normal = doc((i) => `Design work, part ${i + 1}: layouts, reviews and the changes they asked for`, null);
const long = doc((i) => String.fromCharCode(97 + (i % 26)).repeat(500), 'x'.repeat(5000));
const best: Record<string, number> = { normal: 1e9, long: 1e9 };
for (let r = 0; r < 15; r++) {
  for (const [name, d] of (process.env.ONLY === "long" ? [["long", long]] : [["normal", normal], ["long", long]]) as const) {
    const t = process.cpuUsage();
    await renderInvoicePdf(d);
    const u = process.cpuUsage(t);
    best[name] = Math.min(best[name]!, (u.user + u.system) / 1000);
  }
}
console.log(best, (best.long! / best.normal!).toFixed(2));
