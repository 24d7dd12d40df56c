/// <reference types="vite/types/importMeta.d.ts" />
// The rooms import each other one way only (README "Layout"): no two modules import each other, the
// module graph has no cycle, no cycle of files crosses a module's wall, and lib/, db/, http/ and
// middleware/ import no module. A lower room reaches a higher one only through a registry it owns
// (src/registrations.ts). The sources are read as text through Vite: the tests run in workerd, which
// has no file system.
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

// Every relative specifier: `import … from`, `export … from`, `import '…'` and `import('…')`, type-only ones too.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolve(from: string, specifier: string): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  const path = parts.join('/');
  return [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`, `${path}/index.tsx`].find((candidate) => candidate in sources);
}

/** `modules/<name>` for a module's files, else the folder under src/ (`lib`, `db`, …) or `(root)`. */
function roomOf(file: string): string {
  const [, , top, name, ...rest] = file.split('/');
  if (top === 'modules' && rest.length) return `modules/${name}`;
  return name === undefined ? '(root)' : top!;
}

const fileEdges = new Map<string, Set<string>>();
for (const [file, text] of Object.entries(sources)) {
  const targets = new Set<string>();
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    const target = resolve(file, specifier!);
    if (target) targets.add(target);
  }
  fileEdges.set(file, targets);
}

const roomEdges = new Map<string, Map<string, string>>(); // room → room it imports → one file import that does it
for (const [file, targets] of fileEdges) {
  for (const target of targets) {
    const [from, to] = [roomOf(file), roomOf(target)];
    if (from === to) continue;
    if (!roomEdges.has(from)) roomEdges.set(from, new Map());
    roomEdges.get(from)!.set(to, roomEdges.get(from)!.get(to) ?? `${file} imports ${target}`);
  }
}

/** Strongly connected components with more than one member (Tarjan): each holds a cycle. */
function cycles(edges: Map<string, Iterable<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>(), found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

const isModule = (room: string) => room.startsWith('modules/');

describe('the module order', () => {
  it('reads the sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    expect(roomOf('/src/modules/invoices/render/email.ts')).toBe('modules/invoices');
    expect(resolve('/src/modules/emails/consumer.ts', '../../lib/db')).toBe('/src/lib/db.ts');
  });

  it('has no two modules that import each other', () => {
    const both: string[] = [];
    for (const [from, targets] of roomEdges) {
      for (const [to, example] of targets) {
        if (isModule(from) && isModule(to) && from < to && roomEdges.get(to)?.has(from)) both.push(`${from} <-> ${to}: ${example}; ${roomEdges.get(to)!.get(from)}`);
      }
    }
    expect(both).toEqual([]);
  });

  it('orders the modules one way: their graph has no cycle', () => {
    const moduleEdges = new Map([...roomEdges].filter(([room]) => isModule(room)).map(([room, targets]) => [room, [...targets.keys()].filter(isModule)]));
    expect(cycles(moduleEdges)).toEqual([]);
  });

  it('has no cycle of files that crosses a module\'s wall', () => {
    const crossing = cycles(fileEdges).filter((component) => {
      const rooms = new Set(component.map(roomOf));
      return rooms.size > 1 && [...rooms].some(isModule);
    });
    expect(crossing).toEqual([]);
  });

  it('keeps lib, db, http and middleware below every module', () => {
    const upward = [...roomEdges]
      .filter(([room]) => ['lib', 'db', 'http', 'middleware'].includes(room))
      .flatMap(([, targets]) => [...targets].filter(([to]) => isModule(to)).map(([, example]) => example));
    expect(upward).toEqual([]);
  });
});
