// Walking the element tree by local names, as the rules' XPath steps do. Names are matched without their
// namespace: the reader has already checked the root's namespace, and within CII and UBL no two elements the
// rules read share a local name in different namespaces at the same place.
import type { XmlElement } from '../../../../lib/xml-reader';

type Node = XmlElement | null | undefined;

/** Every element reached by following `steps` from `from` (each step: all children of that name). */
export function all(from: Node | Node[], ...steps: string[]): XmlElement[] {
  let current = (Array.isArray(from) ? from : [from]).filter((node): node is XmlElement => Boolean(node));
  // Plain loops: the readers walk every line this way, and a received document may have a thousand.
  for (const step of steps) {
    const next: XmlElement[] = [];
    for (const node of current) for (const child of node.children) if (child.local === step) next.push(child);
    current = next;
  }
  return current;
}

/** The first element reached by `steps`, or null. */
export const first = (from: Node | Node[], ...steps: string[]): XmlElement | null => all(from, ...steps)[0] ?? null;

/** The text of the first element reached by `steps`, or null when there is none. */
export const textAt = (from: Node | Node[], ...steps: string[]): string | null => {
  const node = first(from, ...steps);
  return node ? stringValue(node) : null;
};

/** An element's string value: its text and all its descendants' text, in order (close enough: text before children). */
export function stringValue(node: XmlElement): string {
  return node.children.length === 0 ? node.text : node.text + node.children.map(stringValue).join('');
}

/** XPath's normalize-space(x) != '': present and not blank. */
export const filled = (value: string | null | undefined): value is string => value != null && value.trim() !== '';
