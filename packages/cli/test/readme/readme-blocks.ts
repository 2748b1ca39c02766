// The fenced blocks of the README and of the docs pages it links, each named by the
// `<!-- example: NAME KIND[: why] -->` comment on the line above it. The documents are the source
// of the examples the tests run: a changed example is a changed test, and a block without a name
// fails readme-index.test.ts, whichever page it is on.
import { readFileSync, readdirSync } from 'node:fs';

export const ROOT = new URL('../../../../', import.meta.url);

/**
 * The documents whose blocks are examples: README.md and every Markdown page under docs/, but the
 * upload spec (docs/http-upload-spec.md), which is another project's text shipped verbatim.
 */
export const NOT_OURS = new Set(['docs/http-upload-spec.md']);

/** Every Markdown document of the repository's documentation, as paths relative to the root. */
export function markdownDocuments(): string[] {
  const pages = (readdirSync(new URL('docs/', ROOT), { recursive: true }) as string[])
    .map((path) => `docs/${path.replaceAll('\\', '/')}`)
    .filter((path) => path.endsWith('.md'))
    .sort();
  return ['README.md', ...pages];
}

/** The documents whose fenced blocks are examples (README.md first). */
export function exampleDocuments(): string[] {
  return markdownDocuments().filter((path) => !NOT_OURS.has(path));
}

/**
 * What a block is, and so how it is checked:
 * - node: a complete program, run with node against a real server;
 * - node-after: a continuation, run after the `node` block it follows (the page says which);
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
  /** The document it is in, relative to the repository's root (README.md, docs/agent.md, ...). */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const ANNOTATION = /^\s*<!-- example: ([\w-]+) ([\w-]+)(?:: (.*?))? -->\s*$/;
const FENCE = /^(\s*)```(\S*)\s*$/;

export function documentText(file: string): string {
  return readFileSync(new URL(file, ROOT), 'utf8');
}

export function readmeText(): string {
  return documentText('README.md');
}

/** Every fenced block of one document, annotated or not (an unannotated block has name ''). */
export function parseBlocks(text: string, file: string): ReadmeBlock[] {
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
      file,
      line: i + 1,
    });
    i = j;
  }
  return blocks;
}

/** Every fenced block of the README and the docs pages. */
export function allBlocks(): ReadmeBlock[] {
  return exampleDocuments().flatMap((file) => parseBlocks(documentText(file), file));
}

/** The one block of that name, on whichever page it is. */
export function block(name: string): ReadmeBlock {
  const found = allBlocks().filter((b) => b.name === name);
  if (found.length !== 1)
    throw new Error(`the README and docs pages have ${found.length} blocks named ${name} (one expected)`);
  return found[0]!;
}
