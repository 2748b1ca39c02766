import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The server's own modules each module imports (type imports too: a cycle of types is a cycle of concepts). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
      relative(SRC, resolve(dirname(file), `${m[1]}.ts`)),
    );
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the list of modules around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe("the server's modules", () => {
  it('import each other without cycles (the device policy sits below the ingest service and its queue)', () => {
    const graph = importGraph();
    expect(graph.get('ingest/ingest-queue.ts')).toContain('ingest/device-policy.ts');
    expect(graph.get('ingest/ingest-queue.ts')).not.toContain('ingest/ingest-service.ts');
    expect(cycles(graph)).toEqual([]);
  });
});
