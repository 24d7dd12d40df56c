// A small XML reader for documents that arrive from outside (received e-invoices): it builds a plain element
// tree with namespaces resolved, and refuses rather than guesses. It never resolves an entity other than the five
// XML predefines and character references, refuses any DOCTYPE outright (so no DTD, internal subset or external
// reference is ever read), and stops at a ceiling of bytes, depth and elements, so a hostile file costs bounded
// memory and time. No dependency: a generic parser would bring DTD handling we would only have to switch off.

export type XmlElement = {
  /** The namespace URI ('' when none). */
  ns: string;
  /** The local name, without prefix. */
  local: string;
  /** Attributes by their name as written (`schemeID`, `xmlns:ram`, …). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (text and CDATA directly inside it), entities decoded. */
  text: string;
};

export type XmlLimits = { maxChars: number; maxDepth: number; maxElements: number };

export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 10_000_000, maxDepth: 64, maxElements: 200_000 };

export class XmlReadError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} (at character ${offset})`);
    this.name = 'XmlReadError';
  }
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** The attributes of every element that has none: one object for all (the tree is only ever read). */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

// A name is [A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*, optionally a colon and one more such part, tested
// by character code: a regular expression per tag was a tenth of reading a thousand-line invoice.
const isNameStart = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0xc0;
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0xb7;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
const GT = 0x3e, SLASH = 0x2f, BANG = 0x21, QUESTION = 0x3f, COLON = 0x3a, SEMICOLON = 0x3b;

/** The document's root element; throws XmlReadError on anything malformed, refused or too large. */
export function readXml(source: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  if (source.length > limits.maxChars) throw new XmlReadError(`document longer than ${limits.maxChars} characters`, 0);
  let pos = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let elements = 0;
  let root: XmlElement | null = null;
  // Open elements with the prefixes in scope at each: a stack, never recursion, so depth costs no call stack.
  // `start` is where the element's name is written, so its closing tag is compared in place.
  const stack: { element: XmlElement; qname: string; start: number; scope: Map<string, string> }[] = [];
  const fail = (message: string): never => {
    throw new XmlReadError(message, pos);
  };

  // The next "&" at or after the last place asked about (-1: none left), so text and attribute values without
  // one, nearly all of them, are taken as they are without a look of their own.
  let ampersand = source.indexOf('&');
  const hasAmpersand = (from: number, to: number): boolean => {
    if (ampersand >= 0 && ampersand < from) ampersand = source.indexOf('&', from);
    return ampersand >= 0 && ampersand < to;
  };
  // What /&([^;&\s]{0,12});|&/g finds, walked by hand: a received document may write an entity in every line.
  const decode = (raw: string, at: number): string => {
    let decoded = '';
    let copied = 0;
    for (let amp = raw.indexOf('&'); amp >= 0; amp = raw.indexOf('&', copied)) {
      let end = amp + 1;
      while (end < raw.length && end - amp <= 12 && !isReferenceEnd(raw.charCodeAt(end))) end++;
      if (raw.charCodeAt(end) !== SEMICOLON) throw new XmlReadError('a bare "&" (entities must end with ";")', at);
      decoded += raw.slice(copied, amp) + referenced(raw.slice(amp + 1, end), at);
      copied = end + 1;
    }
    return decoded + raw.slice(copied);
  };
  /** The characters from `start` to `end`, entities decoded (a failure is reported at `at`). */
  const textOf = (start: number, end: number, at = start): string => {
    const raw = source.slice(start, end);
    return hasAmpersand(start, end) ? decode(raw, at) : raw;
  };

  const readName = (): string => {
    const start = pos;
    if (!isNameStart(source.charCodeAt(pos))) fail('a name was expected');
    pos++;
    while (isNameChar(source.charCodeAt(pos))) pos++;
    if (source.charCodeAt(pos) === COLON && isNameStart(source.charCodeAt(pos + 1))) {
      pos += 2;
      while (isNameChar(source.charCodeAt(pos))) pos++;
    }
    return source.slice(start, pos);
  };
  const skipSpace = () => {
    while (isSpace(source.charCodeAt(pos))) pos++;
  };
  const resolve = (qname: string, scope: Map<string, string>, isAttribute: boolean): { ns: string; local: string } => {
    const colon = qname.indexOf(':');
    if (colon < 0) return { ns: isAttribute ? '' : (scope.get('') ?? ''), local: qname };
    const prefix = qname.slice(0, colon);
    const ns = prefix === 'xml' ? XML_NS : scope.get(prefix);
    if (ns === undefined) fail(`the prefix "${prefix}" is not declared`);
    return { ns: ns!, local: qname.slice(colon + 1) };
  };
  // Element names resolved in the current scope, by name as written: a document declares its prefixes once or a
  // few times and then writes the same few dozen names thousands of times, and each element gets the same strings.
  let namesScope: Map<string, string> | null = null;
  let names = new Map<string, { ns: string; local: string }>();
  const resolveElement = (qname: string, scope: Map<string, string>): { ns: string; local: string } => {
    if (scope !== namesScope) {
      namesScope = scope;
      names = new Map();
    }
    let name = names.get(qname);
    if (!name) names.set(qname, (name = resolve(qname, scope, false)));
    return name;
  };
  /** Whether the `length` characters at `a` and at `b` are the same. */
  const sameAt = (a: number, b: number, length: number): boolean => {
    for (let i = 0; i < length; i++) if (source.charCodeAt(a + i) !== source.charCodeAt(b + i)) return false;
    return true;
  };

  while (pos < source.length) {
    const lt = source.indexOf('<', pos);
    const textEnd = lt < 0 ? source.length : lt;
    if (textEnd > pos) {
      const top = stack[stack.length - 1];
      if (top) top.element.text += textOf(pos, textEnd);
      else if (source.slice(pos, textEnd).trim() !== '') fail('text outside the root element');
      pos = textEnd;
      continue;
    }
    const next = source.charCodeAt(pos + 1);
    if (next === BANG) {
      if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos + 4);
        if (end < 0) fail('an unterminated comment');
        pos = end + 3;
      } else if (source.startsWith('<![CDATA[', pos)) {
        const end = source.indexOf(']]>', pos + 9);
        if (end < 0) fail('an unterminated CDATA section');
        const top = stack[stack.length - 1];
        if (!top) fail('CDATA outside the root element');
        top!.element.text += source.slice(pos + 9, end);
        pos = end + 3;
      } else {
        // <!DOCTYPE …> and any other declaration: a DTD could define entities or fetch something; refused.
        fail('a DOCTYPE or other declaration (DTDs and entity definitions are refused)');
      }
    } else if (next === QUESTION) {
      const end = source.indexOf('?>', pos + 2);
      if (end < 0) fail('an unterminated processing instruction');
      pos = end + 2;
    } else if (next === SLASH) {
      const open = stack[stack.length - 1];
      // The usual case, `</name>` closing the open element, compared in place; anything else is read as a name.
      if (open && source.charCodeAt(pos + 2 + open.qname.length) === GT && sameAt(pos + 2, open.start, open.qname.length)) {
        stack.pop();
        pos += open.qname.length + 3;
        continue;
      }
      pos += 2;
      const qname = readName();
      skipSpace();
      if (source.charCodeAt(pos) !== GT) fail('">" expected after a closing tag');
      pos++;
      stack.pop();
      if (!open || open.qname !== qname) fail(`</${qname}> does not close ${open ? `<${open.qname}>` : 'any element'}`);
    } else {
      pos++;
      const start = pos;
      const qname = readName();
      // Name, value, name, value, …; most elements have none, and then no list is made.
      let rawAttributes: string[] | null = null;
      for (;;) {
        const before = pos;
        skipSpace();
        const c = source.charCodeAt(pos);
        if (c === GT || (c === SLASH && source.charCodeAt(pos + 1) === GT)) break;
        if (pos === before) fail('whitespace expected between attributes');
        const name = readName();
        skipSpace();
        if (source[pos] !== '=') fail(`"=" expected after the attribute ${name}`);
        pos++;
        skipSpace();
        const quote = source[pos];
        if (quote !== '"' && quote !== "'") fail('an attribute value must be quoted');
        const end = source.indexOf(quote!, pos + 1);
        if (end < 0) fail('an unterminated attribute value');
        const valueStart = pos + 1;
        if (source.slice(valueStart, end).includes('<')) fail('"<" inside an attribute value');
        rawAttributes ??= [];
        for (let i = 0; i < rawAttributes.length; i += 2) if (rawAttributes[i] === name) fail(`the attribute ${name} appears twice`);
        rawAttributes.push(name, textOf(valueStart, end, pos).replace(/[\t\r\n]/g, ' '));
        pos = end + 1;
      }
      const selfClosing = source.charCodeAt(pos) === SLASH;
      pos += selfClosing ? 2 : 1;

      if (++elements > limits.maxElements) fail(`more than ${limits.maxElements} elements`);
      if (stack.length >= limits.maxDepth) fail(`elements nested deeper than ${limits.maxDepth}`);
      const parent = stack[stack.length - 1];
      const parentScope = parent?.scope ?? new Map<string, string>();
      let scope = parentScope;
      for (let i = 0; rawAttributes && i < rawAttributes.length; i += 2) {
        const name = rawAttributes[i]!;
        const value = rawAttributes[i + 1]!;
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (scope === parentScope) scope = new Map(parentScope);
          scope.set(name === 'xmlns' ? '' : name.slice(6), value);
        }
      }
      const { ns, local } = resolveElement(qname, scope);
      let attributes = NO_ATTRIBUTES;
      if (rawAttributes) {
        attributes = {};
        for (let i = 0; i < rawAttributes.length; i += 2) {
          const name = rawAttributes[i]!;
          if (name.includes(':') && !name.startsWith('xmlns:')) resolve(name, scope, true);
          attributes[name] = rawAttributes[i + 1]!;
        }
      }
      const element: XmlElement = { ns, local, attributes, children: [], text: '' };
      if (parent) parent.element.children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (!selfClosing) stack.push({ element, qname, start, scope });
    }
  }
  if (stack.length > 0) fail(`<${stack.at(-1)!.qname}> is never closed`);
  if (!root) fail('no root element');
  return root!;
}

/** What an entity or character reference `ref` (between "&" and ";") stands for; throws when it is not allowed. */
function referenced(ref: string, at: number): string {
  if (ref.startsWith('#')) {
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    if (!/^#(x[0-9A-Fa-f]+|[0-9]+)$/.test(ref) || !validChar(code)) throw new XmlReadError(`the character reference &${ref}; is not a valid XML character`, at);
    return String.fromCodePoint(code);
  }
  // Own names only: `constructor` or `toString` would otherwise find what every object inherits.
  const value = Object.hasOwn(PREDEFINED, ref) ? PREDEFINED[ref] : undefined;
  if (value === undefined) throw new XmlReadError(`the entity &${ref}; is not one of XML's five predefined entities`, at);
  return value;
}

/** ";", "&" or a character JavaScript's \s matches: where a reference's name stops. */
function isReferenceEnd(c: number): boolean {
  if (c === SEMICOLON || c === 0x26) return true;
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return /\s/.test(String.fromCharCode(c));
}

function validChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** The children of `element` named `local` in namespace `ns`. */
export function childrenNamed(element: XmlElement | null | undefined, ns: string, local: string): XmlElement[] {
  return element ? element.children.filter((child) => child.local === local && child.ns === ns) : [];
}
