import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../../sdk/test/support/import-graph.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

describe("the server's modules", () => {
  it('import each other without cycles (the device policy sits below the ingest decision, which sits below the service)', () => {
    const graph = importGraph(SRC);
    expect(graph.get('ingest/ingest-decision.ts')).toContain('ingest/device-policy.ts');
    expect(graph.get('ingest/ingest-decision.ts')).not.toContain('ingest/ingest-service.ts');
    expect(graph.get('ingest/ingest-queue.ts')).not.toContain('ingest/ingest-service.ts');
    expect(cycles(graph)).toEqual([]);
  });
});
