// A small XML writer for the e-invoice syntaxes. Text and attribute values are escaped here and only here:
// a child that is already markup is a `Markup` value, anything else is text, so nothing is escaped twice or
// not at all. An element without content is left out (attributes alone carry nothing in these syntaxes),
// because Peppol and the EN 16931 rules reject empty elements, and it lets the generators pass optional values
// straight in.

export class Markup {
  constructor(readonly xml: string) {}
}

export type Child = Markup | string | number | null | undefined | false;
export type Attributes = Record<string, string | number | null | undefined>;

// Characters XML 1.0 cannot carry at all (C0 controls but tab, newline and carriage return; unpaired
// surrogates; U+FFFE/U+FFFF). The API refuses them on input; this keeps a stray one from breaking a document.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const TEXT_SPECIAL = /[&<>]/g;
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

export function escapeText(value: string): string {
  return value.replace(NOT_XML, '').replace(TEXT_SPECIAL, (ch) => ENTITIES[ch]!);
}

export function escapeAttribute(value: string): string {
  return value.replace(NOT_XML, '').replace(ATTRIBUTE_SPECIAL, (ch) => ENTITIES[ch]!);
}

/**
 * `<name attrs>children</name>`, or null when it would be empty. Children: markup from `el`, or text
 * (strings and numbers, escaped); null, undefined, false and '' are skipped.
 */
export function el(name: string, attributes: Attributes | null, ...children: Child[]): Markup | null {
  const body = content(children);
  return body === '' ? null : new Markup(`<${name}${attributeList(attributes)}>${body}</${name}>`);
}

/** An element the schema requires even when it has nothing in it: `<name/>` then. */
export function required(name: string, attributes: Attributes | null, ...children: Child[]): Markup {
  const body = content(children);
  const attrs = attributeList(attributes);
  return new Markup(body === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${body}</${name}>`);
}

function content(children: Child[]): string {
  let body = '';
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (child instanceof Markup) body += child.xml;
    else body += escapeText(String(child));
  }
  return body;
}

function attributeList(attributes: Attributes | null): string {
  let attrs = '';
  if (attributes) {
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === '') continue;
      attrs += ` ${key}="${escapeAttribute(String(value))}"`;
    }
  }
  return attrs;
}

/** Several children as one (for loops); null when all are empty. */
export function all(children: Child[]): Markup | null {
  let xml = '';
  for (const child of children) if (child instanceof Markup) xml += child.xml;
  return xml ? new Markup(xml) : null;
}

/** The whole document, with its declaration. */
export function xmlDocument(root: Markup | null): string {
  if (!root) throw new Error('empty XML document');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.xml}\n`;
}
