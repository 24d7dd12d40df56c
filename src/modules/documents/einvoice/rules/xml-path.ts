// Walking the element tree by local names, as the rules' XPath steps do. Names are matched without their
// namespace: the reader has already checked the root's namespace, and within CII and UBL no two elements the
// rules read share a local name in different namespaces at the same place.
import type { XmlElement } from '../../../../lib/xml-reader';

type Node = XmlElement | null | undefined;

/** Every element reached by following `steps` from `from` (each step: all children of that name). */
export function all(from: Node | Node[], ...steps: string[]): XmlElement[] {
  const found: XmlElement[] = [];
  if (!Array.isArray(from)) {
    if (from) collect(from, steps, 0, found);
  } else for (const node of from) if (node) collect(node, steps, 0, found);
  return found;
}

/**
 * Adds to `found` every element below `node` reached by `steps` from index `at`, depth first, which is the
 * order of following the steps one at a time (all the first step's matches, then their matches, …) without a
 * list for each step: the readers walk every line this way, and a received document may have a thousand.
 */
function collect(node: XmlElement, steps: string[], at: number, found: XmlElement[]): void {
  if (at === steps.length) {
    found.push(node);
    return;
  }
  const step = steps[at];
  for (const child of node.children) if (child.local === step) collect(child, steps, at + 1, found);
}

/** The first element below `node` reached by `steps` from index `at`, in document order (`all(…)[0]`). */
function firstBelow(node: XmlElement, steps: string[], at: number): XmlElement | null {
  if (at === steps.length) return node;
  const step = steps[at];
  for (const child of node.children) {
    if (child.local !== step) continue;
    const found = firstBelow(child, steps, at + 1);
    if (found) return found;
  }
  return null;
}

/** The first element reached by `steps` from one node or from each of a list in turn. */
function firstOf(from: Node | Node[], steps: string[]): XmlElement | null {
  if (!Array.isArray(from)) return from ? firstBelow(from, steps, 0) : null;
  for (const node of from) {
    const found = node ? firstBelow(node, steps, 0) : null;
    if (found) return found;
  }
  return null;
}

/**
 * The first element reached by `steps`, or null. Found depth first, stopping at the first, without the lists
 * `all` builds: the readers ask this of every field of every line.
 */
export const first = (from: Node | Node[], ...steps: string[]): XmlElement | null => firstOf(from, steps);

/** The text of the first element reached by `steps`, or null when there is none. */
export const textAt = (from: Node | Node[], ...steps: string[]): string | null => {
  const node = firstOf(from, steps);
  return node ? stringValue(node) : null;
};

/** An element's string value: its text and all its descendants' text, in order (close enough: text before children). */
export function stringValue(node: XmlElement): string {
  return node.children.length === 0 ? node.text : node.text + node.children.map(stringValue).join('');
}

/** XPath's normalize-space(x) != '': present and not blank. */
export const filled = (value: string | null | undefined): value is string => value != null && value.trim() !== '';
