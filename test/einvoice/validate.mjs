// `npm run test:einvoice`: every e-invoice the fixtures produce (test/einvoice/fixtures.ts rendered in CII and UBL,
// the API's own invoices and credit notes, and the CII pulled back out of a Factur-X PDF with pdfdetach) must be
// valid by our own EN 16931 rules (src/modules/documents/einvoice/rules/), and every mutated file of the corpus
// (test/einvoice/corpus.ts) must fail exactly the rules the official validator failed on it, as recorded in
// official-verdicts.json. Where the official validation artefacts are installed (EINVOICE_VALIDATE names their
// `validate` script; .ci/run sets it when CI has them: CEN Schematron for both syntaxes and
// the CII D16B XSD, run by Java and Saxon), all the files go through them too, in one call (official-validator.mjs
// compiles each stylesheet once for them all): the produced ones must pass with no fatal rule, the mutated ones must
// fail as recorded, so the record cannot drift. Without them the check says so in one line and passes on our own
// rules. `-- --record` rewrites official-verdicts.json from the official validator.
// Also reads the Factur-X PDF's XMP (pdfinfo -meta) for the PDF/A-3b and Factur-X declarations, where poppler is
// installed. Runs in Node, not in the Workers pool, because it starts Java and poppler.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderInvoicePdf } from '../../src/renderer/pdf.ts';
import { checkEInvoice } from '../../src/modules/documents/einvoice/check.ts';
import { renderCii } from '../../src/modules/documents/einvoice/cii.ts';
import { validateEInvoice } from '../../src/modules/documents/einvoice/rules/index.ts';
import { makeFacturX } from '../../src/renderer/facturx.ts';
import { renderUbl } from '../../src/modules/documents/einvoice/ubl.ts';
import { MUTATIONS, mutatedFiles } from './corpus.ts';
import { FIXTURES } from './fixtures.ts';
import { eInvoiceXml } from '../../src/modules/invoices/einvoice.ts';
import { invoiceValueOf } from '../../src/modules/invoices/document-for.ts';
import { creditNoteValueOf } from '../../src/modules/credit-notes/documents.ts';
import { printedDocument } from '../../src/modules/documents/render/printed.ts';
import { valueOfEInvoice } from '../../src/modules/documents/value.ts';
import { pdfDocument } from '../../src/renderer/contract.ts';
import { validateOfficially } from './official-validator.mjs';
import { creditNoteEInvoiceXml } from '../../src/modules/credit-notes/einvoice.ts';
import { plannedContent } from '../../src/modules/credit-notes/service.ts';

// EINVOICE_VALIDATE names the validator; unset, empty or pointing at nothing, our own rules and the recorded
// verdicts are the check, as on a fresh clone.
const candidate = process.env.EINVOICE_VALIDATE ?? '';
const validator = candidate && existsSync(candidate) ? candidate : undefined;
const record = process.argv.includes('--record');
const verdictsFile = path.join(import.meta.dirname, 'official-verdicts.json');
if (record && !validator) {
  console.error(`E-invoice check: --record needs the official validator (EINVOICE_VALIDATE: ${candidate || 'not set'}).`);
  process.exit(1);
}
const hasPoppler = ['pdfdetach', 'pdfinfo', 'pdffonts'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
const dir = mkdtempSync(path.join(tmpdir(), 'einvoice-'));
const failures = [];
const fail = (message) => failures.push(message);

try {
  const files = [];
  for (const [name, doc] of Object.entries(FIXTURES)) {
    for (const format of ['cii', 'ubl']) {
      const problems = checkEInvoice(doc, format);
      if (problems.length) fail(`${name} (${format}) is not ready: ${JSON.stringify(problems)}`);
      const file = path.join(dir, `${name}.${format}.xml`);
      writeFileSync(file, format === 'cii' ? renderCii(doc) : renderUbl(doc));
      files.push(file);
    }
  }

  // The API's own path (src/modules/invoices/einvoice.ts, as GET …/e-invoice and the Factur-X PDF use it):
  // stored invoice rows, as sending leaves them, through the invoice's public shape to the XML.
  for (const [name, found] of Object.entries(apiInvoices())) {
    for (const format of ['cii', 'ubl']) {
      const file = path.join(dir, `api-${name}.${format}.xml`);
      writeFileSync(file, eInvoiceXml(await invoiceValueOf({ env: {} }, found), format));
      files.push(file);
    }
  }

  // Credit notes (§17) through the API's own path: the lines and amounts src/modules/credit-notes/service.ts
  // plans from the stored invoice (whole, by line and quantity, lines of its own, the invoice's discount in
  // proportion), as stored, through src/modules/credit-notes/einvoice.ts to the XML.
  for (const [name, found] of Object.entries(apiCreditNotes())) {
    for (const format of ['cii', 'ubl']) {
      const file = path.join(dir, `api-credit-note-${name}.${format}.xml`);
      writeFileSync(file, creditNoteEInvoiceXml(await creditNoteValueOf({ env: {} }, found), format));
      files.push(file);
    }
  }

  // Factur-X of the 100-line invoice: the attachment must come back out byte for byte and validate.
  const doc = FIXTURES['100-lines-line-rounding'];
  const cii = renderCii(doc);
  if (hasPoppler) {
    const pdfFile = path.join(dir, 'factur-x.pdf');
    writeFileSync(pdfFile, await renderInvoicePdf(printable(doc), (pdf) => makeFacturX(pdf, cii)));
    const list = execFileSync('pdfdetach', ['-list', pdfFile], { encoding: 'utf8' });
    if (!/^1 embedded files\n1: factur-x\.xml$/m.test(list.trim())) fail(`pdfdetach -list: expected one file, factur-x.xml; got:\n${list}`);
    const extracted = path.join(dir, 'factur-x.extracted.xml');
    execFileSync('pdfdetach', ['-save', '1', '-o', extracted, pdfFile]);
    if (readFileSync(extracted, 'utf8') !== cii) fail('the XML extracted from the Factur-X PDF differs from the CII that went in');
    files.push(extracted);
    const meta = execFileSync('pdfinfo', ['-meta', pdfFile], { encoding: 'utf8' });
    for (const expected of [
      '<pdfaid:part>3</pdfaid:part>',
      '<pdfaid:conformance>B</pdfaid:conformance>',
      '<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>',
      '<fx:DocumentType>INVOICE</fx:DocumentType>',
      '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>',
      '<fx:Version>1.0</fx:Version>',
      '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>',
    ]) {
      if (!meta.includes(expected)) fail(`the Factur-X XMP lacks ${expected}`);
    }
    const fonts = execFileSync('pdffonts', [pdfFile], { encoding: 'utf8' }).trim().split('\n').slice(2);
    if (fonts.length === 0 || fonts.some((line) => !/\byes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/.test(line))) fail(`a font is not embedded:\n${fonts.join('\n')}`);
  } else {
    console.log('Factur-X PDF checks skipped: poppler-utils (pdfdetach, pdfinfo, pdffonts) is not installed.');
  }

  // Our own EN 16931 rules, always: every produced file valid, every mutated one failing as the official validator did.
  const recorded = existsSync(verdictsFile) ? JSON.parse(readFileSync(verdictsFile, 'utf8')).files : {};
  for (const file of files) {
    const verdict = validateEInvoice(readFileSync(file, 'utf8'));
    if (!verdict.valid) fail(`${path.basename(file)} fails our EN 16931 rules: ${verdict.failures.map((f) => `${f.rule} ${f.path ?? ''}`).join(', ')}`);
  }
  const mutated = mutatedFiles();
  const ownIds = {};
  for (const { file, xml } of mutated) {
    writeFileSync(path.join(dir, file), xml);
    ownIds[file] = uniqueSorted(validateEInvoice(xml).failures.map((f) => f.rule));
    const official = recorded[file]?.fatal;
    if (!record && !official) fail(`${file} has no recorded official verdict: run \`npm run test:einvoice -- --record\` where the validator is installed`);
    else if (!record && official.join(' ') !== ownIds[file].join(' ')) fail(`${file}: our rules fail [${ownIds[file].join(' ')}], the official validator failed [${official.join(' ')}]`);
  }
  const stale = Object.keys(recorded).filter((file) => !mutated.some((m) => m.file === file));
  if (!record && stale.length) fail(`official-verdicts.json records files the corpus no longer makes: ${stale.join(', ')}`);
  console.log(`Our EN 16931 rules: ${files.length} produced e-invoices valid; ${mutated.length} mutated ones checked against the recorded official verdicts.`);

  if (!validator) {
    console.log(`Official EN 16931 validator not found (EINVOICE_VALIDATE: ${candidate || 'not set'}): checked with our own rules only. Set EINVOICE_VALIDATE to its validate script to run it too.`);
  } else {
    // A canary: a document whose totals do not add up must be caught, so a validator that checks nothing
    // (or a report this script misreads) cannot pass for a clean run.
    const canary = path.join(dir, 'canary-wrong-total.cii.xml');
    writeFileSync(canary, renderCii(FIXTURES['two-rates']).replace(/<ram:GrandTotalAmount>[^<]*</, '<ram:GrandTotalAmount>1.00<'));

    // All the files in one call, the canary first; official-validator.mjs compiles each stylesheet once for them all.
    const mutatedPaths = mutated.map((m) => path.join(dir, m.file));
    const report = (await validateOfficially(validator, [canary, ...files, ...mutatedPaths], mkdtempSync(path.join(dir, 'official-'))))
      .replaceAll(`${dir}/`, '');
    const fatalLines = (text) => text.split('\n').filter((line) => line.includes('[fatal]'));
    const isCanary = (line) => line.startsWith(`${path.basename(canary)}:`);
    const canaryOutput = report.split('\n').filter(isCanary).join('\n');
    const canaryFatal = fatalLines(canaryOutput);
    if (!canaryFatal.some((line) => line.includes('BR-CO-15'))) fail(`the validator did not reject the canary with a wrong total (BR-CO-15):\n${canaryOutput}`);
    const output = report.split('\n').filter((line) => !isCanary(line)).join('\n');
    const byFile = officialVerdicts(output);
    const producedFatal = fatalLines(output).filter((line) => !line.startsWith('mutated-'));
    // The produced files' report as the validator prints it; the mutated ones are compared below, not printed.
    const summary = /^\d+ fatal, \d+ warnings in \d+ files$/m.exec(output)?.[0] ?? 'no summary line';
    process.stdout.write(output.split('\n').filter((line) => !line.startsWith('mutated-') && line !== summary).join('\n'));
    console.log(`The validator's count: ${summary} (the ${mutatedPaths.length} mutated files and the canary included).`);
    console.log(`(the canary with a wrong total: ${canaryFatal.length} fatal, as it should be)`);
    if (producedFatal.length) fail(`the EN 16931 validation failed:\n${producedFatal.join('\n')}`);
    const total = 1 + files.length + mutatedPaths.length;
    if (!new RegExp(`^\\d+ fatal, \\d+ warnings in ${total} files$`, 'm').test(output)) fail(`the validator did not check all ${total} files`);
    if (record) {
      const entries = Object.fromEntries(mutated.map(({ file }) => [file, byFile[file] ?? { fatal: [], warnings: [] }]));
      writeFileSync(verdictsFile, `${JSON.stringify({ about: 'The official EN 16931 validator\'s verdict (CEN artefacts 1.3.16) on each mutated file of test/einvoice/corpus.ts: the rule ids it failed. Written by `npm run test:einvoice -- --record`.', files: entries }, null, 2)}\n`);
      console.log(`Recorded the official verdicts of ${mutated.length} mutated files in ${path.relative(root, verdictsFile)}.`);
      for (const { file } of mutated) {
        const official = byFile[file]?.fatal ?? [];
        if (official.join(' ') !== ownIds[file].join(' ')) fail(`${file}: our rules fail [${ownIds[file].join(' ')}], the official validator fails [${official.join(' ')}]`);
        const [, name, syntax] = /^mutated-(.+)\.(cii|ubl)\.xml$/.exec(file);
        if (official.length === 0 && !MUTATIONS[name].accepted?.[syntax]) fail(`${file}: the official validator accepts it; say why in the mutation's \`accepted\`, or make it a mistake the rules catch`);
      }
    } else {
      for (const { file } of mutated) {
        const now = (byFile[file]?.fatal ?? []).join(' ');
        const then = (recorded[file]?.fatal ?? []).join(' ');
        if (now !== then) fail(`${file}: the official validator now fails [${now}], official-verdicts.json records [${then}]: re-record with \`npm run test:einvoice -- --record\``);
      }
      console.log(`Official EN 16931 validator: ${files.length} produced e-invoices valid, ${mutated.length} mutated ones failing as recorded.`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length) {
  console.error(`\nE-invoice check FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(`E-invoice check passed: every produced e-invoice valid in CII and UBL${validator ? ' by the official validator and' : ''} by our own rules, every mutated one failing the rules the official validator names.`);

/** Each file's rule ids from the validator's report (`FILE: [fatal|warning] RULE text`), sorted, without repeats. */
function officialVerdicts(output) {
  const byFile = {};
  for (const line of output.split('\n')) {
    const match = /^(\S+\.xml): \[(fatal|warning)\] (\S+)/.exec(line);
    if (!match) continue;
    const entry = (byFile[match[1]] ??= { fatal: [], warnings: [] });
    entry[match[2] === 'fatal' ? 'fatal' : 'warnings'].push(match[3]);
  }
  for (const entry of Object.values(byFile)) {
    entry.fatal = uniqueSorted(entry.fatal);
    entry.warnings = uniqueSorted(entry.warnings);
  }
  return byFile;
}

function uniqueSorted(ids) {
  return [...new Set(ids)].sort();
}

/** The same document as the invoice PDF prints it: its printed form, from its value. */
/** @param {import('../../src/modules/documents/value.ts').EInvoiceDocument} doc */
function printable(doc) {
  return pdfDocument(printedDocument(valueOfEInvoice(doc, 'en-US')));
}

/** Sent invoices as D1 holds them (rows, snapshots and all), the way the API reads them for an export. */
function apiInvoices() {
  const address = (line1, city, postal_code, country) => ({ line1, line2: null, city, region: null, postal_code, country });
  const issuer = {
    name: 'Ada Studio', legal_name: 'Ada Studio GmbH', email: 'billing@ada.example', address: address('Hauptstraße 1', 'Berlin', '10115', 'DE'),
    tax_id: '27/123/45678', vat_id: 'DE123456789', registration_id: 'HRB 123456 B', peppol_id: '9930:DE123456789', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX',
    // §20: printed at the foot, carried as a second note (BT-22) in the document's language.
    legal_notes: { de: 'Geschäftsführerin: Ada Lovelace, Amtsgericht Charlottenburg', en: 'Registered in Berlin' },
  };
  const billTo = {
    name: 'Client SARL', email: 'ap@client.example', company: 'Client SARL', address: address('1 rue de la Paix', 'Paris', '75002', 'FR'),
    tax_id: 'FR12345678901', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234', buyer_reference: 'PO-77',
  };
  const line = (n, description, quantityMilli, unit, unitAmount, category, rateMilli, tax) => ({
    id: `li_01JDEMO0000000000000000${n}`, invoiceId: 'inv_01JDEMO00000000000000000001', position: n, description, quantityMilli, unit, unitAmount,
    discountPercentMilli: 0, discountAmount: 0, amount: Math.round((quantityMilli * unitAmount) / 1000), taxCategory: category, taxRateMilli: rateMilli, tax,
  });
  const row = (number, lines, breakdown, extra = {}) => {
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const tax = breakdown.reduce((sum, g) => sum + g.tax_amount, 0);
    return {
      id: 'inv_01JDEMO00000000000000000001', workspaceId: 'wsp_01JDEMO00000000000000000001', number, status: 'open', clientId: 'cli_01JDEMO00000000000000000001',
      projectId: null, currency: 'EUR', issueDate: '2026-11-20', dueDate: '2026-12-20', taxableAmount: subtotal, discount: null, discountTotal: 0, tax,
      total: subtotal + tax, taxRounding: 'line', taxBreakdown: JSON.stringify(breakdown), taxExemptionReason: null, taxExemptionCode: null,
      buyerReference: 'PO-77', purchaseOrder: null, amountPaid: 0, overpaidAmount: 0, notes: 'Thank you for your business.',
      issuer: JSON.stringify(issuer), billTo: JSON.stringify(billTo), recurringInvoiceId: null, locale: 'de-DE',
      paymentInstructions: 'IBAN DE89 3704 0044 0532 0130 00', sentAt: '2026-11-20T08:00:00.000Z', viewedAt: null, paidAt: null, voidedAt: null,
      createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z', ...extra,
    };
  };
  const workspace = { id: 'wsp_01JDEMO00000000000000000001', name: 'Ada Studio', issuer: null, paymentInstructions: null, einvoicePdf: 'facturx' };
  const twoRates = [line(0, 'Design work', 10_000, 'HUR', 10_000, 'S', 19_000, 19_000), line(1, 'Printed brochure', 1_000, 'C62', 5_000, 'S', 7_000, 350)];
  const reverseCharge = [line(0, 'Consulting', 4_000, 'HUR', 12_500, 'AE', 0, 0)];
  // A small business (§20): a tax number (BT-32) and no VAT id, its lines E with the §19 UStG note (BT-120).
  const smallIssuer = { ...issuer, legal_name: 'Ada Lovelace', vat_id: null, tax_id: '12/345/67890', registration_id: 'HRA 4711', peppol_id: '0204:991-12345-67', small_business: true };
  const smallBusiness = [line(0, 'Beratung', 2_000, 'HUR', 10_000, 'E', 0, 0)];
  // An intra-community supply (K) without a service date: the issue date stands for the delivery (BR-IC-11).
  const intraCommunity = [line(0, 'Laser-cut brackets', 250_000, 'C62', 420, 'K', 0, 0), line(1, 'Packaging', 3_000, 'XPK', 1_500, 'K', 0, 0)];
  // An export (G) to a client outside the EU, in USD, and zero-rated goods (Z) beside a standard rate.
  const exportToUs = [line(0, 'Sensor kit', 5_000, 'C62', 64_900, 'G', 0, 0)];
  const usClient = { ...billTo, name: 'Whitfield Labs Inc.', company: 'Whitfield Labs Inc.', tax_id: null, vat_id: null, peppol_id: '0060:123456789', address: address('500 Market Street', 'San Francisco', '94105', 'US') };
  const zeroAndStandard = [line(0, 'Printed books', 40_000, 'C62', 1_250, 'Z', 0, 0), line(1, 'Editing', 6_000, 'HUR', 8_000, 'S', 19_000, 9_120)];
  return {
    'two-rates': {
      invoice: { row: row('INV-000041', twoRates, [
        { category: 'S', rate: 19, taxable_amount: 100_000, tax_amount: 19_000, exemption_reason: null, exemption_code: null },
        { category: 'S', rate: 7, taxable_amount: 5_000, tax_amount: 350, exemption_reason: null, exemption_code: null },
      ], { serviceDate: '2026-11-18' }), lines: twoRates },
      workspace,
    },
    'reverse-charge': {
      invoice: { row: row('INV-000042', reverseCharge, [
        { category: 'AE', rate: 0, taxable_amount: 50_000, tax_amount: 0, exemption_reason: 'Reverse charge', exemption_code: 'VATEX-EU-AE' },
      ], { taxExemptionCode: 'VATEX-EU-AE', servicePeriodStart: '2026-11-01', servicePeriodEnd: '2026-11-15' }), lines: reverseCharge },
      workspace,
    },
    'intra-community': {
      invoice: { row: row('INV-000044', intraCommunity, [
        { category: 'K', rate: 0, taxable_amount: 109_500, tax_amount: 0, exemption_reason: 'Intra-community supply', exemption_code: 'VATEX-EU-IC' },
      ], { taxExemptionCode: 'VATEX-EU-IC' }), lines: intraCommunity },
      workspace,
    },
    'export': {
      invoice: { row: row('INV-000045', exportToUs, [
        { category: 'G', rate: 0, taxable_amount: 324_500, tax_amount: 0, exemption_reason: 'Export outside the EU', exemption_code: 'VATEX-EU-G' },
      ], { currency: 'USD', taxExemptionCode: 'VATEX-EU-G', billTo: JSON.stringify(usClient) }), lines: exportToUs },
      workspace,
    },
    'zero-rated-and-standard': {
      invoice: { row: row('INV-000046', zeroAndStandard, [
        { category: 'Z', rate: 0, taxable_amount: 50_000, tax_amount: 0, exemption_reason: null, exemption_code: null },
        { category: 'S', rate: 19, taxable_amount: 48_000, tax_amount: 9_120, exemption_reason: null, exemption_code: null },
      ]), lines: zeroAndStandard },
      workspace,
    },
    'small-business': {
      invoice: { row: row('INV-000043', smallBusiness, [
        { category: 'E', rate: 0, taxable_amount: 20_000, tax_amount: 0, exemption_reason: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.', exemption_code: null },
      ], { issuer: JSON.stringify(smallIssuer) }), lines: smallBusiness },
      workspace,
    },
  };
}

/** Credit notes of the API's invoices, planned and stored as POST …/credit-notes does (no D1 here). */
function apiCreditNotes() {
  const invoices = apiInvoices();
  const discounted = structuredClone(invoices['two-rates']);
  // 5 % off the invoice, with its reason: a credit note takes it in proportion.
  Object.assign(discounted.invoice.row, { discount: JSON.stringify({ percent: 5, amount: null, reason: 'Loyalty' }), discountTotal: 5_250, taxableAmount: 105_000 - 5_250 });
  const cases = {
    'whole-two-rates': [invoices['two-rates'], {}],
    'line-and-own-line': [invoices['two-rates'], { lines: [{ line_item_id: invoices['two-rates'].invoice.lines[0].id, quantity: 2.5 }, { description: 'Goodwill', quantity: 1, unit: 'C62', unit_amount: 1_000, tax_rate: 19 }] }],
    'discount-in-proportion': [discounted, { lines: [{ line_item_id: discounted.invoice.lines[1].id, quantity: 1 }] }],
    'reverse-charge-part': [invoices['reverse-charge'], { lines: [{ line_item_id: invoices['reverse-charge'].invoice.lines[0].id, quantity: 1.5 }] }],
    'small-business-part': [invoices['small-business'], { lines: [{ line_item_id: invoices['small-business'].invoice.lines[0].id, quantity: 1 }] }],
  };
  return Object.fromEntries(Object.entries(cases).map(([name, [found, input]], i) => {
    const row = { ...found.invoice.row, creditedAmount: 0, creditNoteIds: null };
    const state = { invoice: { row, lines: found.invoice.lines }, credited: new Map(), payments: [], refunded: new Map() };
    const { lines, figures } = plannedContent(state, { reason: 'order_change', email: false, ...input });
    const id = `cn_01JDEMO0000000000000000${i}`;
    const note = {
      row: {
        id, userId: 'usr_01JDEMO00000000000000000001', workspaceId: row.workspaceId, invoiceId: row.id, clientId: row.clientId, number: `CN-00000${i + 1}`,
        status: 'issued', reason: 'order_change', memo: 'Corrected after delivery', issueDate: '2026-11-25', currency: row.currency, ...figures,
        taxRounding: row.taxRounding, prePaymentAmount: figures.total, postPaymentAmount: 0, refundId: null, linkVersion: 1, linkHash: null, createdAt: '2026-11-25T08:00:00.000Z',
      },
      lines: lines.map((line) => ({ ...line, creditNoteId: id })),
    };
    return [name, { note, invoice: { row, lines: found.invoice.lines }, workspace: found.workspace }];
  }));
}
