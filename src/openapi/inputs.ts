// A record's create and update take mostly the same fields: `createClient` and `updateClient`
// differ only in `name` being required. The fields both take alike are written once, as a
// component named after the record (`ClientInput`), and each body refers to it with what is its own:
// the fields only it takes or takes differently (a `default` the create applies), and what it
// requires. Generated clients read it as `WithRequired<ClientInput, "name">` (openapi-typescript)
// and `ClientInput & { name: string }` (@hey-api/openapi-ts).
//
// Request bodies are written in place so that a field with a `default` stays optional in generated
// clients (request-bodies.ts); the component only takes fields that carry none, so a
// defaulted field stays in its body. When the two bodies take exactly the fields they share, the
// component refuses any other (`additionalProperties: false`); otherwise each body does, with
// `unevaluatedProperties: false`, which counts the component's fields as its own.
//
// Inputs of records of one family take some fields alike in turn: invoices, quotes and recurring
// invoices refer to `DocumentInput` for their project, notes, discount and exemption (FAMILIES).

type Json = Record<string, unknown>;
type ObjectSchema = { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: unknown };
type Media = { schema?: unknown };
type Doc = { paths?: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, unknown> } };

/** Below this the fields two bodies share are not worth a named type in generated clients. */
const SMALLEST = 400;

const PLAIN_KEYS = ['type', 'properties', 'required', 'additionalProperties'];
const isPlainObject = (schema: unknown): schema is ObjectSchema =>
  !!schema && typeof schema === 'object' && (schema as Json).type === 'object' && !!(schema as Json).properties && Object.keys(schema).every((key) => PLAIN_KEYS.includes(key));

/** The JSON media of an operation's body written in place (a body in components.requestBodies is shared already). */
function bodyMedia(operation: Json | undefined): Media | undefined {
  const body = operation?.requestBody as { $ref?: string; content?: Record<string, Media> } | undefined;
  return body && !body.$ref ? body.content?.['application/json'] : undefined;
}

/** The body as the component and what is its own. */
function referring(schema: ObjectSchema, name: string, shared: Record<string, unknown>, closed: boolean): Json {
  const ref = { $ref: `#/components/schemas/${name}` };
  const required = schema.required ?? [];
  const own = Object.fromEntries(Object.entries(schema.properties).filter(([field]) => !(field in shared)));
  if (closed && !Object.keys(own).length && !required.length) return ref;
  // @hey-api/openapi-ts types a field `required` names as required only when the schema has fields
  // of its own beside the `allOf`: with none, the required ones are said again.
  const properties = Object.keys(own).length ? own : Object.fromEntries(required.map((field) => [field, shared[field]]));
  return {
    allOf: [ref],
    ...(Object.keys(properties).length ? { properties } : {}),
    ...(required.length ? { required } : {}),
    ...(closed ? {} : { unevaluatedProperties: false }),
  };
}

export function withSharedInputs<T extends object>(document: T): T {
  const doc = document as Doc;
  const schemas = doc.components?.schemas;
  if (!schemas) return document;
  const byId = new Map(Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item)).map((operation) => [String(operation.operationId), operation]));
  const required = new Set<string>();
  for (const [id, create] of byId) {
    const noun = id.match(/^create([A-Z]\w*)$/)?.[1];
    const creating = bodyMedia(create);
    const updating = bodyMedia(byId.get(`update${noun}`));
    const name = `${noun}Input`;
    if (!noun || !creating || !updating || schemas[name] || !isPlainObject(creating.schema) || !isPlainObject(updating.schema)) continue;
    const [c, u] = [creating.schema, updating.schema];
    const shared = Object.fromEntries(Object.entries(c.properties).filter(([field, schema]) => {
      const text = JSON.stringify(schema);
      return field in u.properties && text === JSON.stringify(u.properties[field]) && !text.includes('"default":');
    }));
    const closed = [c, u].every((s) => s.additionalProperties === false && Object.keys(s.properties).every((field) => field in shared));
    const bodies = [referring(c, name, shared, closed), referring(u, name, shared, closed)];
    // What the two bodies would say again (a required field, see referring) counts against what they share.
    const restated = bodies.flatMap((body) => Object.keys((body.properties as Json | undefined) ?? {}).filter((field) => field in shared).map((field) => shared[field]));
    if (JSON.stringify(shared).length - JSON.stringify(restated).length < SMALLEST) continue;
    schemas[name] = { type: 'object', properties: shared, ...(closed ? { additionalProperties: false } : {}) };
    [creating.schema, updating.schema] = bodies;
    for (const field of [...(c.required ?? []), ...(u.required ?? [])]) required.add(`${name}.${field}`);
  }
  for (const [family, members] of Object.entries(FAMILIES)) shareAmong(schemas, family, members, required);
  return document;
}

// Records whose inputs take some fields alike, as one more component each of them refers to.
const FAMILIES: Record<string, string[]> = {
  // The documents on the invoice's line and tax model: their lines, discount, exemption, notes and project.
  DocumentInput: ['InvoiceInput', 'QuoteInput', 'RecurringInvoiceInput'],
};

/**
 * The fields every one of `members` takes alike, written once as `family`, when that saves enough;
 * each member keeps the rest, and the fields a body requires: generators find a required field in
 * the component a body refers to, not in one that component refers to in turn.
 */
function shareAmong(schemas: Record<string, unknown>, family: string, members: string[], required: Set<string>) {
  const found = members.map((name) => schemas[name]);
  // An input that refuses other fields (`additionalProperties`) would refuse the family's too: its body closes it instead.
  if (schemas[family] || !found.every((input) => isPlainObject(input) && input.additionalProperties === undefined)) return;
  const inputs = found as ObjectSchema[];
  const [first, ...rest] = inputs;
  const alike = Object.fromEntries(Object.entries(first!.properties).filter(([field, schema]) =>
    members.every((name) => !required.has(`${name}.${field}`)) && rest.every((input) => JSON.stringify(input.properties[field]) === JSON.stringify(schema))));
  if (JSON.stringify(alike).length * (members.length - 1) < SMALLEST) return;
  schemas[family] = { type: 'object', properties: alike };
  for (const [i, name] of members.entries()) {
    const own = Object.fromEntries(Object.entries(inputs[i]!.properties).filter(([field]) => !(field in alike)));
    schemas[name] = { allOf: [{ $ref: `#/components/schemas/${family}` }], type: 'object', properties: own };
  }
}
