// A path's ids (`{id}`, `{payment_id}`) are the same for every operation under it: they are declared
// once, on the path item, which OpenAPI applies to each of its operations, rather than on each
// operation (a get, a patch and a delete each naming `ClientId`). Query and header parameters stay
// with their operations.

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, Json>; components?: { parameters?: Record<string, Json> } };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function withPathParametersOnPathItems<T extends object>(document: T): T {
  const doc = document as Doc;
  const declared = doc.components?.parameters ?? {};
  const where = (param: Json) => (typeof param.$ref === 'string' ? declared[param.$ref.split('/').pop()!]?.in : param.in);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (item.$ref) continue;
    const operations = Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([, operation]) => operation as Json);
    const lists = operations.map((operation) => ((operation.parameters as Json[] | undefined) ?? []).map((param) => JSON.stringify(param)));
    const shared = (lists[0] ?? []).filter((text) => where(JSON.parse(text)) === 'path' && lists.every((list) => list.includes(text)));
    if (!shared.length) continue;
    for (const operation of operations) {
      const rest = (operation.parameters as Json[]).filter((param) => !shared.includes(JSON.stringify(param)));
      if (rest.length) operation.parameters = rest;
      else delete operation.parameters;
    }
    // First, as a reader meets the path's ids before its operations.
    doc.paths![path] = { parameters: shared.map((text) => JSON.parse(text)), ...item };
  }
  return document;
}
