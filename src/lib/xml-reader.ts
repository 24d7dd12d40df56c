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
const NAME = /[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?/y;
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** The document's root element; throws XmlReadError on anything malformed, refused or too large. */
export function readXml(source: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  if (source.length > limits.maxChars) throw new XmlReadError(`document longer than ${limits.maxChars} characters`, 0);
  let pos = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let elements = 0;
  let root: XmlElement | null = null;
  // Open elements with the prefixes in scope at each: a stack, never recursion, so depth costs no call stack.
  const stack: { element: XmlElement; qname: string; scope: Map<string, string> }[] = [];
  const fail = (message: string): never => {
    throw new XmlReadError(message, pos);
  };

  const decode = (raw: string, at: number): string =>
    raw.indexOf('&') < 0
      ? raw
      : raw.replace(/&([^;&\s]{0,12});|&/g, (whole, ref: string | undefined) => {
        if (ref === undefined) throw new XmlReadError('a bare "&" (entities must end with ";")', at);
        if (ref.startsWith('#')) {
          const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
          if (!/^#(x[0-9A-Fa-f]+|[0-9]+)$/.test(ref) || !validChar(code)) throw new XmlReadError(`the character reference ${whole} is not a valid XML character`, at);
          return String.fromCodePoint(code);
        }
        const value = PREDEFINED[ref];
        if (value === undefined) throw new XmlReadError(`the entity &${ref}; is not one of XML's five predefined entities`, at);
        return value;
      });

  const readName = (): string => {
    NAME.lastIndex = pos;
    const match = NAME.exec(source);
    if (!match) fail('a name was expected');
    pos = NAME.lastIndex;
    return match![0];
  };
  const skipSpace = () => {
    while (pos < source.length && ' \t\r\n'.includes(source[pos]!)) pos++;
  };
  const resolve = (qname: string, scope: Map<string, string>, isAttribute: boolean): { ns: string; local: string } => {
    const colon = qname.indexOf(':');
    if (colon < 0) return { ns: isAttribute ? '' : (scope.get('') ?? ''), local: qname };
    const prefix = qname.slice(0, colon);
    const ns = prefix === 'xml' ? XML_NS : scope.get(prefix);
    if (ns === undefined) fail(`the prefix "${prefix}" is not declared`);
    return { ns: ns!, local: qname.slice(colon + 1) };
  };

  while (pos < source.length) {
    const lt = source.indexOf('<', pos);
    const textEnd = lt < 0 ? source.length : lt;
    if (textEnd > pos) {
      const raw = source.slice(pos, textEnd);
      const top = stack.at(-1);
      if (top) top.element.text += decode(raw, pos);
      else if (raw.trim() !== '') fail('text outside the root element');
      pos = textEnd;
      continue;
    }
    if (source.startsWith('<!--', pos)) {
      const end = source.indexOf('-->', pos + 4);
      if (end < 0) fail('an unterminated comment');
      pos = end + 3;
    } else if (source.startsWith('<![CDATA[', pos)) {
      const end = source.indexOf(']]>', pos + 9);
      if (end < 0) fail('an unterminated CDATA section');
      const top = stack.at(-1);
      if (!top) fail('CDATA outside the root element');
      top!.element.text += source.slice(pos + 9, end);
      pos = end + 3;
    } else if (source.startsWith('<!', pos)) {
      // <!DOCTYPE …> and any other declaration: a DTD could define entities or fetch something; refused.
      fail('a DOCTYPE or other declaration (DTDs and entity definitions are refused)');
    } else if (source.startsWith('<?', pos)) {
      const end = source.indexOf('?>', pos + 2);
      if (end < 0) fail('an unterminated processing instruction');
      pos = end + 2;
    } else if (source.startsWith('</', pos)) {
      pos += 2;
      const qname = readName();
      skipSpace();
      if (source[pos] !== '>') fail('">" expected after a closing tag');
      pos++;
      const open = stack.pop();
      if (!open || open.qname !== qname) fail(`</${qname}> does not close ${open ? `<${open.qname}>` : 'any element'}`);
    } else {
      pos++;
      const qname = readName();
      const rawAttributes: [string, string][] = [];
      for (;;) {
        const before = pos;
        skipSpace();
        if (source[pos] === '>' || source.startsWith('/>', pos)) break;
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
        const raw = source.slice(pos + 1, end);
        if (raw.includes('<')) fail('"<" inside an attribute value');
        if (rawAttributes.some(([n]) => n === name)) fail(`the attribute ${name} appears twice`);
        rawAttributes.push([name, decode(raw, pos).replace(/[\t\r\n]/g, ' ')]);
        pos = end + 1;
      }
      const selfClosing = source[pos] === '/';
      pos += selfClosing ? 2 : 1;

      if (++elements > limits.maxElements) fail(`more than ${limits.maxElements} elements`);
      if (stack.length >= limits.maxDepth) fail(`elements nested deeper than ${limits.maxDepth}`);
      const parentScope = stack.at(-1)?.scope ?? new Map<string, string>();
      let scope = parentScope;
      for (const [name, value] of rawAttributes) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (scope === parentScope) scope = new Map(parentScope);
          scope.set(name === 'xmlns' ? '' : name.slice(6), value);
        }
      }
      const { ns, local } = resolve(qname, scope, false);
      const attributes: Record<string, string> = {};
      for (const [name, value] of rawAttributes) {
        if (name.includes(':') && !name.startsWith('xmlns:')) resolve(name, scope, true);
        attributes[name] = value;
      }
      const element: XmlElement = { ns, local, attributes, children: [], text: '' };
      const parent = stack.at(-1);
      if (parent) parent.element.children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (!selfClosing) stack.push({ element, qname, scope });
    }
  }
  if (stack.length > 0) fail(`<${stack.at(-1)!.qname}> is never closed`);
  if (!root) fail('no root element');
  return root!;
}

function validChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** The children of `element` named `local` in namespace `ns`. */
export function childrenNamed(element: XmlElement | null | undefined, ns: string, local: string): XmlElement[] {
  return element ? element.children.filter((child) => child.local === local && child.ns === ns) : [];
}
