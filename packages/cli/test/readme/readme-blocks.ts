// The README's fenced blocks, each named by the `<!-- example: NAME KIND[: why] -->` comment on the
// line above it. The README is the source of the examples the tests run: a changed example is a
// changed test, and a block without a name fails readme-index.test.ts.
import { readFileSync } from 'node:fs';

export const README_PATH = new URL('../../../../README.md', import.meta.url);

/**
 * What a block is, and so how it is checked:
 * - node: a complete program, run with node against a real server;
 * - node-after: a continuation, run after the `node` block it follows;
 * - browser: a page module, run in Chromium against a real server;
 * - shell: commands run as child processes against a real server;
 * - agent-config: a `waypost agent --config` file, run by the agent;
 * - synopsis: the CLI's synopsis, checked against every command's `--help`;
 * - layout: the repository's layout, checked against the tree;
 * - fragment: not runnable on its own (the why says what covers it).
 */
export const BLOCK_KINDS = [
  'node',
  'node-after',
  'browser',
  'shell',
  'agent-config',
  'synopsis',
  'layout',
  'fragment',
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export interface ReadmeBlock {
  name: string;
  kind: string;
  why: string;
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const ANNOTATION = /^\s*<!-- example: ([\w-]+) ([\w-]+)(?:: (.*?))? -->\s*$/;
const FENCE = /^(\s*)```(\S*)\s*$/;

export function readmeText(): string {
  return readFileSync(README_PATH, 'utf8');
}

/** Every fenced block, annotated or not (an unannotated block has name ''). */
export function parseBlocks(text = readmeText()): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    const note = i > 0 ? ANNOTATION.exec(lines[i - 1]!) : null;
    blocks.push({
      name: note?.[1] ?? '',
      kind: note?.[2] ?? '',
      why: note?.[3] ?? '',
      lang: open[2]!,
      code: body.join('\n') + '\n',
      line: i + 1,
    });
    i = j;
  }
  return blocks;
}

export function block(name: string): ReadmeBlock {
  const found = parseBlocks().filter((b) => b.name === name);
  if (found.length !== 1) throw new Error(`README.md has ${found.length} blocks named ${name}`);
  return found[0]!;
}
