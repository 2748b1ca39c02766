// The README as a whole: every fenced block says what it is and is run by a test (or says why it
// cannot be), every spec citation opens, and the layout names what is there.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCK_KINDS, block, parseBlocks, readmeText } from './readme-blocks.js';

const root = new URL('../../../../', import.meta.url);
const blocks = parseBlocks();
const testSources = readdirSync(new URL('./', import.meta.url))
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

describe('README blocks', () => {
  it('every fenced block is named and of a known kind, names unique', () => {
    const bad = blocks.filter((b) => !b.name || !(BLOCK_KINDS as readonly string[]).includes(b.kind));
    expect(bad.map((b) => `README.md:${b.line}`)).toEqual([]);
    const names = blocks.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('every runnable block is run by a README test; every fragment says why it is not', () => {
    const runnable = blocks.filter((b) => b.kind !== 'fragment');
    expect(runnable.length).toBeGreaterThanOrEqual(13);
    expect(runnable.filter((b) => !testSources.includes(`block('${b.name}')`)).map((b) => b.name)).toEqual([]);
    expect(blocks.filter((b) => b.kind === 'fragment' && b.why.length < 20).map((b) => b.name)).toEqual([]);
  });
});

describe('README citations of the spec', () => {
  const spec = readFileSync(new URL('docs/http-upload-spec.md', root), 'utf8');
  const anchors = new Set([...spec.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!)));

  it('every "spec N" in the README is a link to a section of docs/http-upload-spec.md that exists', () => {
    const readme = readmeText();
    const bare = [...readme.matchAll(/[^[]spec (\d[\d.]*|rule \d)/g)].map((m) => m[0]);
    expect(bare).toEqual([]);
    const links = [...readme.matchAll(/\]\(docs\/http-upload-spec\.md#([\w-]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(4);
    expect(links.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });
});

describe('README layout', () => {
  it('names every package and folder there is, and nothing that is not there', () => {
    const layout = block('layout').code;
    const named = [...layout.matchAll(/^(\S+)/gm)].map((m) => m[1]!.replace(/\/$/, ''));
    expect(named.filter((path) => !existsSync(new URL(path, root)))).toEqual([]);
    const packages = readdirSync(new URL('packages/', root)).map((p) => `packages/${p}`);
    expect(packages.filter((p) => !named.includes(p))).toEqual([]);
  });
});
