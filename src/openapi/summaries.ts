// Lists answer a record's summary (`InvoiceSummary`: the invoice without its line items), reads the
// whole record. The document writes the record as its summary and what it adds
// (`Invoice = allOf [InvoiceSummary, {line_items}]`) instead of every shared field twice: some
// 10 KB of /openapi.json for invoices, quotes and credit notes. Generated clients read it as
// `InvoiceSummary & { line_items: … }`.

type Json = Record<string, unknown>;
type ObjectSchema = { type?: unknown; properties?: Record<string, unknown>; required?: string[]; description?: unknown };

const PLAIN_OBJECT_KEYS = ['type', 'properties', 'required', 'description'];
const isPlainObject = (schema: unknown): schema is ObjectSchema =>
  !!schema && typeof schema === 'object' && (schema as Json).type === 'object' && Object.keys(schema).every((key) => PLAIN_OBJECT_KEYS.includes(key));

/** `record` as `summary` and its own fields, when every field of `summary` is the record's, alike. */
function asSummaryAndMore(record: ObjectSchema, summary: ObjectSchema, summaryName: string): Json | undefined {
  const own = record.properties ?? {};
  const shared = Object.entries(summary.properties ?? {});
  if (shared.some(([name, schema]) => JSON.stringify(own[name]) !== JSON.stringify(schema))) return undefined;
  const required = record.required ?? [];
  if ((summary.required ?? []).some((name) => !required.includes(name))) return undefined;
  const added = Object.fromEntries(Object.entries(own).filter(([name]) => !(name in (summary.properties ?? {}))));
  if (!Object.keys(added).length) return undefined;
  const addedRequired = required.filter((name) => name in added);
  return {
    ...(record.description !== undefined ? { description: record.description } : {}),
    allOf: [{ $ref: `#/components/schemas/${summaryName}` }, { type: 'object', properties: added, ...(addedRequired.length ? { required: addedRequired } : {}) }],
  };
}

export function withRecordsAsSummaries<T extends object>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {};
  for (const [name, record] of Object.entries(schemas)) {
    const summary = schemas[`${name}Summary`];
    if (!isPlainObject(record) || !isPlainObject(summary)) continue;
    const written = asSummaryAndMore(record, summary, `${name}Summary`);
    if (written) schemas[name] = written;
  }
  return document;
}
