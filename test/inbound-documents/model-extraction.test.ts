// A PDF without XML or a receipt's photo read by the model (§21 "Processing"): through the configured provider
// (a local chat-completions server speaking OpenAI's API, a Workers AI binding, or no model at all), every answer
// read bounded and within the time limit, checked like any input (totals that do not add up are warnings), and at
// most 10 a minute per workspace (§7).
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { extractWithModel, MODEL_EXTRACTIONS_PER_MINUTE, PROVIDER_RETRY_SECONDS, unreadByModel } from '../../src/modules/inbound-documents/model-extraction';
import { base64, MODEL_TEXT_MAX_CHARS } from '../../src/modules/inbound-documents/model-prompt';
import { WORKERS_AI_DOCUMENT_MODEL } from '../../src/modules/inbound-documents/model-providers';
import type { ModelReading } from '../../src/modules/inbound-documents/reading';
import { Extracted } from '../../src/modules/inbound-documents/schemas';
import { inOneWindow } from '../helpers/rate-windows';
import { type FakeModelServer, fakeModelServer, fakeWorkersAi } from './fake-model-server';

// A limit far above what a busy machine needs for an answer; the tests of a server that is too slow set a short one.
const openai = { ...env, AI_PROVIDER: 'openai', AI_API_KEY: 'sk-test-model-key', AI_MODEL: 'test-vision-model', AI_TIMEOUT_MS: '10000' } as Env;
const impatient = { ...openai, AI_TIMEOUT_MS: '200' } as Env;
const workspace = () => `wsp_${crypto.randomUUID().replace(/-/g, '')}`;

// A real PNG (1×1, one red pixel): what a phone's photo is, smaller.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const image = (workspaceId = workspace()) => ({ workspaceId, contentType: 'image/png', bytes: PNG.buffer });
const PDF_TEXT = 'Bürobedarf Schmidt GmbH\nUSt-IdNr. DE123456789\nRechnung Nr. R-2026-0042 vom 03.11.2026\n2 × Druckerpapier A4 à 12,50 €  25,00 €\n1 × Toner  60,00 €\nNetto 85,00 €  USt 19 % 16,15 €  Gesamt 101,15 €';
const pdf = (text = PDF_TEXT, workspaceId = workspace()) => ({ workspaceId, contentType: 'application/pdf', text });

/** What a good model answers for PDF_TEXT: every figure adds up. */
const GOOD = {
  kind: 'invoice',
  supplier: { name: 'Bürobedarf Schmidt GmbH', vat_id: 'DE123456789', tax_id: null, address: null, iban: null },
  number: 'R-2026-0042',
  issue_date: '2026-11-03',
  due_date: null,
  currency: 'EUR',
  subtotal: 8500,
  tax: 1615,
  total: 10115,
  tax_breakdown: [{ category: 'S', rate: 19, taxable_amount: 8500, tax_amount: 1615 }],
  lines: [
    { description: 'Druckerpapier A4', quantity: 2, unit_amount: 1250, amount: 2500, tax_rate: 19 },
    { description: 'Toner', quantity: 1, unit_amount: 6000, amount: 6000, tax_rate: 19 },
  ],
  buyer_reference: null,
  purchase_order: null,
  confidence: 0.92,
};
const { confidence: _confidence, ...GOOD_EXTRACTED } = GOOD;
const answering = (changes: Record<string, unknown>) => JSON.stringify({ ...GOOD, ...changes });

const rules = (reading: ModelReading) => (reading.ok ? reading.warnings.map((w) => w.rule) : []);
const expectRetryLater = (reading: ModelReading, reason: RegExp) => {
  expect(reading).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
  expect('retryAfter' in reading && reading.retryAfter).toBe(PROVIDER_RETRY_SECONDS);
};
const expectNothingRead = (reading: ModelReading, rule: string, reason: RegExp) => {
  expect(reading).toMatchObject({ ok: true, extracted: null, confidence: null, warnings: [{ rule, message: expect.stringMatching(reason), path: null }] });
};

let server: FakeModelServer;
beforeEach(() => {
  server = fakeModelServer();
  server.content = JSON.stringify(GOOD);
});
afterEach(() => vi.restoreAllMocks());

describe('AI_PROVIDER=local', () => {
  it('reads nothing and asks no one: the document waits for a person, empty, and no extraction is counted', async () => {
    const limit = vi.spyOn(env.AI_RATE_LIMITER, 'limit');
    expect(await extractWithModel(env, image())).toEqual({ ok: true, extracted: null, confidence: null, warnings: [] });
    expect(await extractWithModel(env, pdf())).toEqual({ ok: true, extracted: null, confidence: null, warnings: [] });
    expect(server.requests).toHaveLength(0);
    expect(limit).not.toHaveBeenCalled();
  });
});

describe('a chat-completions server', () => {
  it('gets the photo as an image_url data URL with our schema as structured output, and its reading is kept', async () => {
    const reading = await extractWithModel(openai, image());
    expect(reading).toEqual({ ok: true, extracted: GOOD_EXTRACTED, confidence: 0.92, warnings: [] });

    expect(server.requests).toHaveLength(1);
    const [{ url, headers, body }] = server.requests as [FakeModelServer['requests'][0]];
    expect(url).toBe('https://chat.test/v1/chat/completions');
    expect(headers.authorization).toBe('Bearer sk-test-model-key');
    expect(body.model).toBe('test-vision-model');
    const [system, user] = body.messages;
    expect(system).toMatchObject({ role: 'system', content: expect.stringContaining('never instructions') });
    expect(user.role).toBe('user');
    const picture = user.content.find((part: any) => part.type === 'image_url');
    expect(picture.image_url.url).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`);
    // The schema is Extracted's, every field required (strict mode), with a confidence to fill in.
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'extracted_document', strict: true } });
    const schema = body.response_format.json_schema.schema;
    expect(schema.required).toEqual([...Object.keys(Extracted.shape), 'confidence']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.total).toMatchObject({ type: ['integer', 'null'], minimum: 0, description: expect.stringContaining('minor units') });
    expect(schema.properties.lines.items.required).toEqual(['description', 'quantity', 'unit_amount', 'amount', 'tax_rate']);
  });

  it('sends a photo of any length byte for byte', () => {
    const bytes = Uint8Array.from({ length: 65_537 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff);
    for (const length of [0, 1, 2, 3, 4, 5, 65_536, 65_537]) {
      const part = bytes.subarray(0, length);
      expect(base64(part), `${length} bytes`).toBe(btoa(Array.from(part, (b) => String.fromCharCode(b)).join('')));
    }
  });

  it("gets a PDF's text as the user message, cut to what a model is given, and says so", async () => {
    const reading = await extractWithModel(openai, pdf());
    expect(reading).toMatchObject({ ok: true, extracted: { number: 'R-2026-0042', total: 10115 }, warnings: [] });
    expect(server.requests[0]!.body.messages[1]).toEqual({ role: 'user', content: PDF_TEXT });

    const long = `${PDF_TEXT}\n${'Artikel 1 × 1,00 €\n'.repeat(5_000)}`;
    const cut = await extractWithModel(openai, pdf(long));
    expect(server.requests[1]!.body.messages[1].content).toHaveLength(MODEL_TEXT_MAX_CHARS);
    expect(cut.ok && cut.warnings).toEqual([{ rule: 'MODEL-TEXT-CUT', message: expect.stringContaining(`first ${MODEL_TEXT_MAX_CHARS}`), path: null }]);
  });

  it('asks nothing of a PDF with no text (a scan) and leaves it to a person', async () => {
    expectNothingRead(await extractWithModel(openai, pdf('  \n ')), 'MODEL-NO-TEXT', /no text/);
    expect(server.requests).toHaveLength(0);
  });

  it('asks a server without structured output once more in JSON mode, with the schema in the instructions', async () => {
    server.mode = 'no-schema';
    const reading = await extractWithModel(openai, image());
    expect(reading).toMatchObject({ ok: true, extracted: GOOD_EXTRACTED });
    expect(server.requests.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object']);
    expect(server.requests[1]!.body.messages[0].content).toContain('"required":["kind","supplier"');
  });

  it('answers a reason, and asks no model, for a document given without its bytes or its text', async () => {
    expect(await extractWithModel(openai, { workspaceId: workspace(), contentType: 'image/jpeg' })).toMatchObject({ ok: false, reason: expect.stringContaining('bytes') });
    expect(await extractWithModel(openai, { workspaceId: workspace(), contentType: 'application/pdf' })).toMatchObject({ ok: false, reason: expect.stringContaining('text') });
    expect(server.requests).toHaveLength(0);
  });
});

describe("the model's answer, checked like any input", () => {
  it('warns when the figures do not add up, and keeps them for the person to correct', async () => {
    server.content = answering({
      total: 10215, // a misread digit: 8500 + 1615 is 10115
      lines: [{ description: 'Druckerpapier A4', quantity: 2, unit_amount: 1250, amount: 2500, tax_rate: 19 }], // the toner line dropped
      tax_breakdown: [{ category: 'S', rate: 19, taxable_amount: 8000, tax_amount: 1615 }],
    });
    const reading = await extractWithModel(openai, image());
    expect(reading.ok && reading.extracted).toMatchObject({ subtotal: 8500, tax: 1615, total: 10215 });
    expect(rules(reading)).toEqual(['MODEL-TOTALS', 'MODEL-LINES', 'MODEL-BREAKDOWN', 'MODEL-TAX-RATE']);
    expect(reading.ok && reading.warnings[0]).toEqual({ rule: 'MODEL-TOTALS', message: expect.stringContaining('do not add up to the total 10215'), path: 'total' });
  });

  it("takes a receipt's lines with VAT included as agreeing with its gross total", async () => {
    server.content = answering({
      lines: [
        { description: 'Druckerpapier A4', quantity: 2, unit_amount: 1488, amount: 2975, tax_rate: 19 },
        { description: 'Toner', quantity: 1, unit_amount: 7140, amount: 7140, tax_rate: 19 },
      ],
    });
    expect(rules(await extractWithModel(openai, image()))).toEqual([]);
  });

  it('leaves a value that does not fit empty, with a warning naming it, and keeps the rest', async () => {
    server.content = answering({
      issue_date: '2026-02-30',
      due_date: '03.12.2026',
      currency: '€',
      tax: 16.15,
      total: 20_000_000_000_000,
      supplier: { name: 'Bürobedarf\nSchmidt GmbH', vat_id: '', tax_id: null, address: 'Hauptstr. 1\n10115 Berlin', iban: null },
      lines: [{ description: 'Toner\nschwarz', quantity: 'one', unit_amount: 6000, amount: 6000, tax_rate: 19 }, 'Druckerpapier'],
      kind: 'receipt',
      confidence: 7,
    });
    const reading = await extractWithModel(openai, image());
    if (!reading.ok) throw new Error(reading.reason);
    expect(reading.extracted).toMatchObject({
      kind: 'invoice',
      supplier: { name: 'Bürobedarf Schmidt GmbH', vat_id: null, address: 'Hauptstr. 1 10115 Berlin' },
      issue_date: null,
      due_date: null,
      currency: null,
      subtotal: 8500,
      tax: null,
      total: null,
      lines: [{ description: 'Toner\nschwarz', quantity: null, amount: 6000 }],
    });
    expect(reading.confidence).toBe(1);
    expect(reading.warnings.map((w) => [w.rule, w.path])).toEqual([
      ['MODEL-FIELD', 'kind'],
      ['MODEL-FIELD', 'issue_date'],
      ['MODEL-FIELD', 'due_date'],
      ['MODEL-FIELD', 'currency'],
      ['MODEL-FIELD', 'tax'],
      ['MODEL-FIELD', 'total'],
      ['MODEL-FIELD', 'lines.1'],
      ['MODEL-FIELD', 'lines.0.quantity'],
      ['MODEL-LINES', 'lines'],
    ]);
    expect(Extracted.parse(reading.extracted)).toEqual(reading.extracted);
  });

  it('leaves a supplier that is not an object empty, with a warning', async () => {
    server.content = answering({ supplier: 'Bürobedarf Schmidt GmbH' });
    const reading = await extractWithModel(openai, image());
    expect(reading.ok && reading.extracted?.supplier).toEqual({ name: null, vat_id: null, tax_id: null, address: null, iban: null });
    expect(reading.ok && reading.warnings).toEqual([{ rule: 'MODEL-FIELD', message: expect.stringContaining('supplier was not an object'), path: 'supplier' }]);
  });

  it('clamps the confidence into 0..1 and takes a missing one as unknown', async () => {
    server.content = answering({ confidence: -0.5 });
    expect(await extractWithModel(openai, image())).toMatchObject({ ok: true, confidence: 0 });
    server.content = JSON.stringify(GOOD_EXTRACTED);
    expect(await extractWithModel(openai, image())).toMatchObject({ ok: true, confidence: null });
  });

  it('sums a thousand lines of the largest amounts exactly', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => ({ description: `Line ${i}`, quantity: 1, unit_amount: 10_000_000_000_000, amount: 10_000_000_000_000, tax_rate: 0 }));
    // 1000 × 10^13 = 10^16 is past Number's exact range: the sum that disagrees is told exactly.
    server.content = answering({ lines, subtotal: 9_999_999_999_999, tax: 0, total: null, tax_breakdown: [] });
    const reading = await extractWithModel(openai, image());
    expect(reading.ok && reading.extracted?.lines).toHaveLength(1000);
    expect(reading.ok && reading.warnings).toEqual([{ rule: 'MODEL-LINES', message: expect.stringContaining('10000000000000000'), path: 'lines' }]);
  });
});

describe('a model that lets the document down', () => {
  it('garbage (prose, an HTML page, a refusal): in review with nothing read and the reason, not asked again', async () => {
    server.content = 'Sure! This looks like an invoice from an office supplier, total about 100 euros.';
    expectNothingRead(await extractWithModel(openai, image()), 'MODEL-UNUSABLE', /did not answer with a JSON object/);
    server.mode = 'garbage';
    expectNothingRead(await extractWithModel(openai, image()), 'MODEL-UNUSABLE', /answered 200 with something that is not JSON/);
    server.mode = 'refusal';
    expectNothingRead(await extractWithModel(openai, image()), 'MODEL-UNUSABLE', /refused: I'm sorry/);
    expect(server.requests).toHaveLength(3);
  });

  it('a 60 MB answer: read no further than its first megabyte, in review with the reason', async () => {
    server.mode = 'huge';
    expectNothingRead(await extractWithModel(openai, image()), 'MODEL-UNUSABLE', /more than 1 MB, read no further/);
    expect(server.huge.read()).toBeLessThan(1024 * 1024 + 128 * 1024);
  });

  it('a server that does not answer within AI_TIMEOUT_MS, before or during its answer: tried again later', async () => {
    server.mode = 'slow';
    expectRetryLater(await extractWithModel(impatient, image()), /unreachable \(TimeoutError\)/);
    server.mode = 'stalls';
    expectRetryLater(await extractWithModel(impatient, image()), /stopped answering \(TimeoutError\)/);
  });

  it('a server that is down, busy or broken: tried again later, and the reason never shows the key', async () => {
    const reasons: string[] = [];
    for (const [mode, reason] of [['down', /unreachable/], ['busy', /answered 429/], ['broken', /answered 503/]] as const) {
      server.mode = mode;
      const reading = await extractWithModel(openai, image());
      expectRetryLater(reading, reason);
      reasons.push(JSON.stringify(reading));
    }
    expect(reasons.join()).not.toContain('sk-test-model-key');
  });

  it('ends, when no retry is left, in review with nothing read and the reason', () => {
    expectNothingRead(unreadByModel('The model did not answer: the chat-completions server answered 503.'), 'MODEL-UNAVAILABLE', /answered 503\.\): fill in/);
  });
});

describe('the limit', () => {
  it(`reads ${MODEL_EXTRACTIONS_PER_MINUTE} documents a minute per workspace; the next is to be retried when the minute ends`, { timeout: 90_000 }, async () => {
    // The limiter counts per minute on the clock: should a slow machine carry the calls into the next minute,
    // they are made again, from a fresh workspace, in the one after.
    let refused: Awaited<ReturnType<typeof extractWithModel>> | undefined;
    for (let attempt = 0; attempt < 2 && !refused; attempt++) {
      const busy = workspace();
      await inOneWindow();
      const minute = Math.floor(Date.now() / 60_000);
      server.requests.length = 0;
      for (let i = 0; i < MODEL_EXTRACTIONS_PER_MINUTE; i++) expect((await extractWithModel(openai, image(busy))).ok, `extraction ${i + 1}`).toBe(true);
      const answer = await extractWithModel(openai, pdf(PDF_TEXT, busy));
      if (Math.floor(Date.now() / 60_000) === minute || attempt === 1) refused = answer;
    }
    expect(refused).toMatchObject({ ok: false, reason: 'At most 10 documents a minute per workspace are read by the model.' });
    const retryAfter = refused && 'retryAfter' in refused ? refused.retryAfter : 0;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The model was not asked for the eleventh, and another workspace is read as before.
    expect(server.requests).toHaveLength(MODEL_EXTRACTIONS_PER_MINUTE);
    expect((await extractWithModel(openai, image())).ok).toBe(true);
  });

  it('counts in its own bucket per workspace, apart from the co-pilot', async () => {
    const buckets: string[] = [];
    vi.spyOn(env.AI_RATE_LIMITER, 'limit').mockImplementation(async ({ key }) => (buckets.push(key), { success: true }));
    const id = workspace();
    await extractWithModel(openai, image(id));
    expect(buckets).toEqual([`inbound-model:${id}`]);
  });
});

describe('Workers AI', () => {
  const withAi = (ai: Ai, timeoutMs = 10_000) => ({ ...env, AI_PROVIDER: 'workers-ai', AI_TIMEOUT_MS: String(timeoutMs), AI: ai }) as unknown as Env;

  it("asks the vision model in JSON mode with the photo as a data URL, and reads its raw answer", async () => {
    const workers = fakeWorkersAi();
    workers.response = GOOD; // in JSON mode the binding gives the object itself
    const reading = await extractWithModel(withAi(workers.ai), image());
    expect(reading).toEqual({ ok: true, extracted: GOOD_EXTRACTED, confidence: 0.92, warnings: [] });
    const [{ model, inputs, options }] = workers.runs as [(typeof workers.runs)[0]];
    expect(model).toBe(WORKERS_AI_DOCUMENT_MODEL);
    expect(inputs.response_format).toMatchObject({ type: 'json_schema', json_schema: { required: [...Object.keys(Extracted.shape), 'confidence'] } });
    expect(inputs.max_tokens).toBeGreaterThanOrEqual(2048);
    expect(inputs.messages[1].content[1].image_url.url).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(options).toMatchObject({ returnRawResponse: true, signal: expect.any(AbortSignal) });

    workers.response = JSON.stringify(GOOD); // or as text
    expect(await extractWithModel(withAi(workers.ai), pdf())).toMatchObject({ ok: true, extracted: GOOD_EXTRACTED });
    expect(server.requests).toHaveLength(0);
  });

  it('bounds its answer and its time like any other', async () => {
    const workers = fakeWorkersAi();
    workers.mode = 'huge';
    expectNothingRead(await extractWithModel(withAi(workers.ai), image()), 'MODEL-UNUSABLE', /Workers AI answered 200 with more than 1 MB/);
    expect(workers.huge.read()).toBeLessThan(1024 * 1024 + 128 * 1024);
    workers.mode = 'slow';
    expectRetryLater(await extractWithModel(withAi(workers.ai, 200), image()), /Workers AI did not answer \(TimeoutError\)/);
    workers.mode = 'busy';
    expectRetryLater(await extractWithModel(withAi(workers.ai), image()), /Workers AI answered 429/);
  });

  it('without the AI binding: tried again later with a reason an operator can act on', async () => {
    const unbound = { ...env, AI_PROVIDER: 'workers-ai' } as Env;
    expectRetryLater(await extractWithModel(unbound, image()), /no AI binding/);
  });
});
