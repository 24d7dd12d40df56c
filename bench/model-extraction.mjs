// npm run bench:model-extraction: what reading a document by model costs this worker, apart from the model's own
// time (§21): checking an answer (the Extracted schema field by field, then the totals) of 1 and of 1,000 lines, as a
// ratio to JSON.parse of the same answer, the least any reader of it does; and building the request for a 10 MB photo
// (base64 into a data URL, then the JSON body), as a ratio to JSON.stringify of a string of the same size. Pure
// functions in Node (same V8 as workerd); each figure is the median of rounds of N calls measured with
// process.cpuUsage after a warm-up, so other load on the machine counts less.
import { checkModelAnswer } from '../src/modules/inbound-documents/model-answer.ts';
import { EXTRACTION_INSTRUCTIONS, extractionJsonSchema, userContent } from '../src/modules/inbound-documents/model-prompt.ts';

function cpuMs(fn, { calls, rounds = 7 }) {
  for (let i = 0; i < calls; i++) fn(); // warm-up
  const perCall = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) fn();
    const used = process.cpuUsage(start);
    perCall.push((used.user + used.system) / 1000 / calls);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(rounds / 2)];
}

const line = (i) => ({ description: `Item ${i}: printer paper, A4, 80 g/m²`, quantity: 2, unit_amount: 1250, amount: 2500, tax_rate: 19 });
function answer(lines) {
  const subtotal = 2500 * lines;
  const tax = Math.round(subtotal * 0.19);
  return JSON.stringify({
    kind: 'invoice',
    supplier: { name: 'Bürobedarf Schmidt GmbH', vat_id: 'DE123456789', tax_id: null, address: 'Hauptstr. 1, 10115 Berlin', iban: 'DE89370400440532013000' },
    number: 'R-2026-0042', issue_date: '2026-11-03', due_date: '2026-12-03', currency: 'EUR',
    subtotal, tax, total: subtotal + tax,
    tax_breakdown: [{ category: 'S', rate: 19, taxable_amount: subtotal, tax_amount: tax }],
    lines: Array.from({ length: lines }, (_, i) => line(i)),
    buyer_reference: null, purchase_order: null, confidence: 0.9,
  });
}

const rows = [];
function row(name, work, floor, calls) {
  const ms = cpuMs(work, { calls });
  const floorMs = cpuMs(floor, { calls });
  rows.push(`| ${name.padEnd(58)} | ${ms.toFixed(3).padStart(9)} | ${floorMs.toFixed(3).padStart(9)} | ${(ms / floorMs).toFixed(1).padStart(6)}× |`);
}

const schemaStart = process.cpuUsage();
extractionJsonSchema();
const schemaUsed = process.cpuUsage(schemaStart);

for (const lines of [1, 1000]) {
  const text = answer(lines);
  if (checkModelAnswer(text).warnings.length) throw new Error('the benchmark answer should add up');
  row(`check a ${lines}-line answer (${(text.length / 1024).toFixed(0)} KB)`, () => checkModelAnswer(text), () => JSON.parse(text), lines === 1 ? 2000 : 20);
}

const photo = new Uint8Array(10 * 1024 * 1024).map((_, i) => (i * 7919) & 0xff);
const sameSize = 'x'.repeat(Math.ceil((photo.length * 4) / 3));
row(
  'request body for a 10 MB photo (base64 data URL + JSON)',
  () => JSON.stringify({ model: 'm', messages: [{ role: 'system', content: EXTRACTION_INSTRUCTIONS }, { role: 'user', content: userContent({ image: { contentType: 'image/jpeg', bytes: photo.buffer } }) }], response_format: extractionJsonSchema() }),
  () => JSON.stringify({ content: sameSize }),
  3,
);

console.log('| CPU ms per call (median of 7 rounds)                       | work      | floor     | ratio   |');
console.log('|------------------------------------------------------------|-----------|-----------|---------|');
for (const r of rows) console.log(r);
console.log(`\nfloors: JSON.parse of the same answer; JSON.stringify of a string as long as the photo's base64.`);
console.log(`the JSON Schema, built once per isolate from Extracted: ${((schemaUsed.user + schemaUsed.system) / 1000).toFixed(1)} ms of CPU (${JSON.stringify(extractionJsonSchema()).length} bytes)`);
