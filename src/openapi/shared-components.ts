// What every operation repeats is written once, under `components`, and referenced: the error
// responses (the same per status, or per combination of generic statuses, on every operation), the
// response headers, shared parameters (Idempotency-Key, the webhook signature headers), and the long
// enumerations (currencies, countries, time zones) that request bodies, written out in place for
// generated clients (request-bodies.ts), would otherwise repeat on every field that takes
// one. Written out, they made /openapi.json some 600 KB, slow to load in /docs; referenced, it stays
// well under 250 KB. Generated clients read the references as they read any other.
import { COUNTRY_CODES } from '../lib/countries';
import { CURRENCY_CODES } from '../lib/currencies';
import { errorRangeName, errorRangeStatuses } from '../http/error-ranges';
import { RESPONSE_HEADERS } from '../http/response-headers';
import { TAX_CATEGORIES, TAX_ROUNDING_MODES } from '../modules/documents/totals';
import { UNIT_CODES, UNIT_LIST_TEXT } from '../lib/units';
import { TIME_ZONE_TEXT, TIME_ZONES } from '../modules/workspaces/validation';
import { EVENT_TYPES } from '../modules/events/types';
import { ROLES } from '../lib/context';
import { TAX_TREATMENTS } from '../db/schema/clients';
import { EXPENSE_CATEGORIES } from '../modules/expenses/schemas';
import { ON_ACCEPT, ON_ACCEPT_TEXT } from '../modules/quotes/schemas';

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, Record<string, Json>>; webhooks?: Record<string, Record<string, Json>>; components?: Record<string, Record<string, unknown>> };

const ENUMERATIONS: { name: string; values: readonly string[]; description: string; example: string }[] = [
  { name: 'CurrencyCode', values: CURRENCY_CODES, description: 'ISO 4217 currency code, upper case.', example: 'EUR' },
  { name: 'CountryCode', values: COUNTRY_CODES, description: 'An assigned ISO 3166-1 alpha-2 code, upper case (not XX or another user-assigned one).', example: 'DE' },
  { name: 'TimeZone', values: TIME_ZONES, description: TIME_ZONE_TEXT, example: 'Europe/Berlin' },
  { name: 'UnitCode', values: UNIT_CODES, description: `UN/ECE Recommendation 20 unit code; a line takes one of: ${UNIT_LIST_TEXT}.`, example: 'HUR' },
  // Registered by the invoice schemas with its long description, which the component keeps.
  { name: 'TaxCategory', values: TAX_CATEGORIES, description: 'EN 16931 VAT category.', example: 'S' },
  // Registered by the client schemas with its description: a client's, its create's and its update's (§20).
  { name: 'TaxTreatment', values: TAX_TREATMENTS, description: 'A client\'s tax treatment.', example: 'auto' },
  // An event's type, the events filter and what a webhook endpoint subscribes to (with `*`).
  { name: 'EventType', values: EVENT_TYPES, description: 'An event type (see `webhooks`).', example: 'invoice.paid' },
  // Registered by lib/schemas.ts with the roles' order; request bodies, written out in place, repeated it.
  { name: 'Role', values: ROLES, description: 'A role in a workspace.', example: 'member' },
  // A quote's, its create's and its update's; an expense's, its bodies' and the expenses filter.
  { name: 'OnAccept', values: ON_ACCEPT, description: ON_ACCEPT_TEXT, example: 'none' },
  { name: 'ExpenseCategory', values: EXPENSE_CATEGORIES, description: 'What an expense was for.', example: 'software' },
  // The workspace's, and each document's from when it was made: each field says which.
  {
    name: 'TaxRounding',
    values: TAX_ROUNDING_MODES,
    description: 'How tax is rounded, as **Money** in the introduction says: `line` rounds each line\'s tax (a tax group\'s discount share lowering it, never below 0); `group` rounds once per tax group, and line `tax` is null.',
    example: 'line',
  },
];

// An error response is named after its status (`422`): it is referenced a few hundred times, so
// the name's length counts, and the status says what it is. A `4XX` entry is named after the
// generic statuses it names (error-ranges.ts); those statuses never stand on their own.
const isErrorStatus = (status: string) => /^[45]\d\d$/.test(status);

/** A parameter several operations take alike, as a reference to components.parameters. */
function shareParameter(param: Json, parameters: Record<string, unknown>, counts: Map<string, number>): Json {
  const text = JSON.stringify(param);
  // `required: false` is what a parameter outside the path is without saying so.
  if (param.required === false) {
    const { required: _, ...rest } = param;
    param = rest;
  }
  const schema = param.schema as Json | undefined;
  // The description is the parameter's; its schema's copy of it says nothing more.
  if (schema && typeof schema.description === 'string' && schema.description === param.description) {
    const { description: _, ...rest } = schema;
    param = { ...param, schema: rest };
  }
  if (typeof param.name !== 'string' || (counts.get(text) ?? 0) < 2) return param;
  // `id` in a path is named after what it identifies: the value component its schema refers to
  // (`ClientId`, withSharedValueSchemas, which runs first); a required Idempotency-Key apart from the optional one.
  const idSchema = param.in === 'path' ? String((param.schema as Json | undefined)?.$ref ?? '').match(/^#\/components\/schemas\/(\w+Id)$/)?.[1] : undefined;
  const base = idSchema ?? pascal(param.name);
  const named = param.name === 'Idempotency-Key' && param.required ? `${base}Required` : base;
  // A query filter apart from the path id of the same name (`client_id` vs a client's `id`).
  const name = parameters[named] && JSON.stringify(parameters[named]) !== JSON.stringify(param) && param.in === 'query' ? `${named}Filter` : named;
  parameters[name] ??= param;
  return JSON.stringify(parameters[name]) === JSON.stringify(param) ? { $ref: `#/components/parameters/${name}` } : param;
}

/** `webhook-id` → `WebhookId`. */
const pascal = (name: string) => name.split(/[^A-Za-z0-9]+/).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');

// As sets, looked up rather than scanned: the document meets a few hundred enums, some of 400 zones.
const VALUE_SETS = new Map(ENUMERATIONS.map((e) => [e, new Set<unknown>(e.values)]));
const sameSet = (a: readonly unknown[], e: (typeof ENUMERATIONS)[number]) => a.length === e.values.length && a.every((value) => VALUE_SETS.get(e)!.has(value));

/** The values of `values` beyond those of a long enumeration `e` (a webhook endpoint's `*` beside the event types), when it has all of `e`'s. */
function beyond(values: readonly unknown[], e: (typeof ENUMERATIONS)[number]): unknown[] | undefined {
  const own = values.filter((value) => !VALUE_SETS.get(e)!.has(value));
  return e.values.length >= 10 && values.length - own.length === e.values.length && own.length <= 2 ? own : undefined;
}

/** A schema that is one of the enumerations (or it or null, or it and a value or two of its own), as a reference keeping a description and a default of its own. */
function asReference(schema: Json, descriptions: Record<string, unknown>): Json | undefined {
  const values = schema.enum;
  if (!Array.isArray(values)) return undefined;
  // Nullable either way the generator writes it: null among the values, or "null" among the types.
  const nullable = values.includes(null) || (Array.isArray(schema.type) && schema.type.includes('null'));
  const nonNull = values.filter((v) => v !== null);
  const named = ENUMERATIONS.find((e) => sameSet(nonNull, e) || beyond(nonNull, e));
  if (!named) return undefined;
  const ref = { $ref: `#/components/schemas/${named.name}` };
  // A default stays beside the reference (an expense's `currency` is USD unless sent): a request body
  // written out in place keeps it, and one that moves into a component says it in words.
  const own = {
    ...(typeof schema.description === 'string' && schema.description !== descriptions[named.name] ? { description: schema.description } : {}),
    ...('default' in schema ? { default: schema.default } : {}),
  };
  const extra = sameSet(nonNull, named) ? [] : beyond(nonNull, named)!;
  const others = [...(extra.length ? [{ type: 'string', enum: extra }] : []), ...(nullable ? [{ type: 'null' }] : [])];
  return others.length ? { anyOf: [ref, ...others], ...own } : { ...ref, ...own };
}

function referenceEnumerations(value: unknown, used: Set<string>, descriptions: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => referenceEnumerations(item, used, descriptions));
  if (!value || typeof value !== 'object') return value;
  const ref = asReference(value as Json, descriptions);
  if (ref) {
    used.add(JSON.stringify(ref).match(/schemas\/(\w+)/)![1]!);
    return ref;
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, referenceEnumerations(inner, used, descriptions)]));
}

export function withSharedComponents<T extends object>(document: T): T {
  const doc = document as Doc;
  const components = (doc.components ??= {});
  const schemas = (components.schemas ??= {}) as Record<string, unknown>;
  const responses = (components.responses ??= {}) as Record<string, unknown>;
  const parameters = (components.parameters ??= {}) as Record<string, unknown>;
  // Each response header a client reads, declared once; responses refer to them (response-headers.ts).
  components.headers = { ...RESPONSE_HEADERS };

  const counts = new Map<string, number>();
  for (const operation of [...Object.values(doc.paths ?? {}), ...Object.values(doc.webhooks ?? {})].flatMap((item) => Object.values(item))) {
    for (const param of (operation.parameters as Json[] | undefined) ?? []) counts.set(JSON.stringify(param), (counts.get(JSON.stringify(param)) ?? 0) + 1);
  }
  const used = new Set<string>();
  // The component keeps the description its schema was registered with (TimeZone's, TaxCategory's); a field that says the same says nothing of its own.
  const descriptions = Object.fromEntries(ENUMERATIONS.map((e) => [e.name, (schemas[e.name] as Json | undefined)?.description ?? e.description]));
  doc.paths = referenceEnumerations(doc.paths, used, descriptions) as Doc['paths'];
  doc.webhooks = referenceEnumerations(doc.webhooks, used, descriptions) as Doc['webhooks'];
  for (const name of Object.keys(schemas)) schemas[name] = referenceEnumerations(schemas[name], used, descriptions);
  for (const e of ENUMERATIONS) {
    if (used.has(e.name)) schemas[e.name] = { type: 'string', enum: [...e.values], description: descriptions[e.name], example: e.example };
  }

  // The first error response of each status is the shared one; any operation's that differs stays its own.
  const shared = new Map<string, string>();
  const webhooks = new Set(Object.values(doc.webhooks ?? {}).flatMap((item) => Object.values(item)));
  // Path ids are named first (`ProjectId`), so that a query filter of the same name is the one called
  // `ProjectIdFilter`, rather than the id staying written out on every operation of its path.
  for (const operation of Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item))) {
    for (const param of (operation.parameters as Json[] | undefined) ?? []) if (param.in === 'path') shareParameter(param, parameters, counts);
  }
  for (const operation of [...Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item)), ...webhooks]) {
    {
      const webhook = webhooks.has(operation);
      // A webhook entry declares no answer of its own: `webhook.test` declares the one every delivery expects.
      if (webhook && !Object.keys(operation.responses ?? {}).length) delete operation.responses;
      const answers = operation.responses as Record<string, unknown> | undefined;
      for (const [status, answer] of Object.entries(answers ?? {})) {
        // What a receiver answers is the same for every event type.
        const name = webhook ? 'WebhookReceived' : status === '4XX' ? errorRangeName(errorRangeStatuses(String((answer as Json).description))) : isErrorStatus(status) ? status : undefined;
        if (!name || (answer as Json).$ref) continue;
        const key = `${name}:${status}`;
        const text = JSON.stringify(answer);
        if (!shared.has(key)) {
          shared.set(key, text);
          responses[name] = answer;
        }
        if (shared.get(key) === text) answers![status] = { $ref: `#/components/responses/${name}` };
      }
      const params = operation.parameters as Json[] | undefined;
      if (params) operation.parameters = params.map((param) => shareParameter(param, parameters, counts));
    }
  }
  shareRequestBodies(doc);
  shareAnswers(doc);
  keyedByDefault(doc);
  return document;
}

/** Most operations take an API key: that is the document's default, and only public (`[]`) and operator routes say otherwise. */
function keyedByDefault(doc: Doc) {
  const keyed = JSON.stringify([{ ApiKey: [] }]);
  (doc as Json).security = JSON.parse(keyed);
  for (const operation of Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item))) {
    if (JSON.stringify(operation.security) === keyed) delete operation.security;
  }
}

/**
 * A success answer several operations give alike (pause, resume and cancel answering the
 * recurring invoice as it is now) is written once in components.responses, named after the first
 * operation that gives it (`UpdateRecurringInvoice200`). An answer only one operation gives stays
 * in place: a reference and a component would cost more than it.
 */
function shareAnswers(doc: Doc) {
  const byText = new Map<string, { answers: Record<string, unknown>; status: string; operation: Json }[]>();
  for (const operation of Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item))) {
    const answers = (operation.responses ?? {}) as Record<string, unknown>;
    for (const [status, answer] of Object.entries(answers)) {
      if (!status.startsWith('2') || (answer as Json).$ref || !(answer as Json).content) continue;
      const text = JSON.stringify(answer);
      byText.set(text, [...(byText.get(text) ?? []), { answers, status, operation }]);
    }
  }
  const responses = doc.components!.responses as Record<string, unknown>;
  for (const uses of byText.values()) {
    if (uses.length < 2) continue;
    const first = uses[0]!;
    const name = `${pascal(String(first.operation.operationId))}${first.status}`;
    if (responses[name]) continue;
    responses[name] = first.answers[first.status];
    for (const use of uses) use.answers[use.status] = { $ref: `#/components/responses/${name}` };
  }
}

/**
 * A body several operations take alike (the actions that take no fields) is written out once, in
 * components.requestBodies, named after the first operation or `NoFields`. openapi-typescript
 * reads a schema there as it reads one under a requestBody: a defaulted field stays optional.
 */
function shareRequestBodies(doc: Doc) {
  const byText = new Map<string, Json[]>();
  for (const operation of Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item))) {
    if (!operation.requestBody || (operation.requestBody as Json).$ref) continue;
    const text = JSON.stringify(operation.requestBody);
    byText.set(text, [...(byText.get(text) ?? []), operation]);
  }
  const bodies = (doc.components!.requestBodies ??= {}) as Record<string, unknown>;
  for (const operations of byText.values()) {
    if (operations.length < 2) continue;
    const schema = (operations[0]!.requestBody as { content?: Record<string, { schema?: Json }> }).content?.['application/json']?.schema;
    const name = !Object.keys((schema?.properties as Json | undefined) ?? {}).length ? 'NoFields' : pascal(String(operations[0]!.operationId));
    if (bodies[name]) continue;
    bodies[name] = operations[0]!.requestBody;
    for (const operation of operations) operation.requestBody = { $ref: `#/components/requestBodies/${name}` };
  }
}
