// The README and the docs pages as a whole: every fenced block on every page says what it is and is
// run by a test (or says why it cannot be), every spec citation opens, the layout names what is
// there, and the README names everything `npm test` needs.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anchorsOf, relativeLinks } from './doc-links.js';
import { BLOCK_KINDS, ROOT, allBlocks, block, documentText, exampleDocuments, readmeText } from './readme-blocks.js';

const blocks = allBlocks();
const testSources = [
  ...readdirSync(new URL('./', import.meta.url))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')),
  // The webhook receiver's function is run by the server's tests, on real deliveries.
  readFileSync(new URL('packages/server/test/fleet-readme.test.ts', ROOT), 'utf8'),
].join('\n');

describe('README and docs blocks', () => {
  it('the README and at least the reference pages are read', () => {
    const documents = exampleDocuments();
    expect(documents[0]).toBe('README.md');
    for (const page of ['docs/sdk-options.md', 'docs/sdk-api.md', 'docs/server.md', 'docs/agent.md', 'docs/cli.md'])
      expect(documents).toContain(page);
  });

  it('every fenced block on every page is named and of a known kind, names unique', () => {
    const bad = blocks.filter((b) => !b.name || !(BLOCK_KINDS as readonly string[]).includes(b.kind));
    expect(
      bad.map((b) => `${b.file}:${b.line}: a fenced block needs <!-- example: NAME KIND[: why] --> above it`),
    ).toEqual([]);
    const names = blocks.map((b) => b.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('every runnable block is run by a test; every fragment says why it is not', () => {
    const runnable = blocks.filter((b) => b.kind !== 'fragment');
    expect(runnable.length).toBeGreaterThanOrEqual(13);
    expect(
      runnable.filter((b) => !testSources.includes(`block('${b.name}')`)).map((b) => `${b.file}: ${b.name}`),
    ).toEqual([]);
    expect(blocks.filter((b) => b.kind === 'fragment' && b.why.length < 20).map((b) => b.name)).toEqual([]);
  });

  it('a node-after block says on its page which block it continues', () => {
    for (const after of blocks.filter((b) => b.kind === 'node-after')) {
      const before = documentText(after.file)
        .split('\n')
        .slice(Math.max(0, after.line - 6), after.line - 1);
      expect(before.join(' '), `${after.file}:${after.line}`).toMatch(/continues/);
    }
  });
});

describe('citations of the spec', () => {
  const specFile = 'docs/http-upload-spec.md';
  const anchors = anchorsOf(documentText(specFile));

  it('every "spec N" on a page is a link to a section of docs/http-upload-spec.md that exists', () => {
    let cited = 0;
    for (const file of exampleDocuments()) {
      const text = documentText(file);
      const bare = [...text.matchAll(/[^[]spec (\d[\d.]*|rule \d)/g)].map((m) => `${file}: ${m[0]}`);
      expect(bare).toEqual([]);
      for (const link of relativeLinks(text)) {
        if (new URL(link.path, new URL(file, ROOT)).href !== new URL(specFile, ROOT).href) continue;
        if (link.anchor === '') continue; // the spec as a whole, from the list of pages
        cited++;
        expect(anchors.has(link.anchor), `${file}:${link.line} ${link.target}`).toBe(true);
      }
    }
    expect(cited).toBeGreaterThanOrEqual(4);
  });
});

describe('layout', () => {
  it('names every package and folder there is, and nothing that is not there', () => {
    const layout = block('layout').code;
    const named = [...layout.matchAll(/^(\S+)/gm)].map((m) => m[1]!.replace(/\/$/, ''));
    expect(named.filter((path) => !existsSync(new URL(path, ROOT)))).toEqual([]);
    const packages = readdirSync(new URL('packages/', ROOT)).map((p) => `packages/${p}`);
    expect(packages.filter((p) => !named.includes(p))).toEqual([]);
  });
});

describe("the README's prerequisites of npm test", () => {
  it('name every Debian package and daemon the test runner installs or starts', () => {
    const runner = readFileSync(new URL('scripts/run-tests.mjs', ROOT), 'utf8');
    const packages = [
      ...[...runner.matchAll(/run: apt-get install -y ([a-z0-9 .+-]+)/g)].flatMap((m) => m[1]!.trim().split(' ')),
      ...[...runner.matchAll(/ensureBroker\('[^']*', \d+, '[^']*', '([^']+)'/g)].map((m) => m[1]!),
    ];
    expect(packages).toEqual(expect.arrayContaining(['chromium', 'gpsd', 'python3-gps', 'mosquitto', 'nats-server']));
    const readme = readmeText();
    const section = readme.slice(
      readme.indexOf('## The two commands'),
      readme.indexOf('\n## ', readme.indexOf('## The two commands') + 1),
    );
    expect(packages.filter((name) => !section.includes(name))).toEqual([]);
    expect(section).toMatch(/PostgreSQL/);
  });

  it('say the Node.js version the engines field asks for', () => {
    const { engines } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
      engines: { node: string };
    };
    const version = /^>=(\d+\.\d+)$/.exec(engines.node)?.[1];
    expect(version).toBeDefined();
    const said = [...readmeText().matchAll(/Node\.js (\d+(?:\.\d+)?)/g)].map((m) => m[1]);
    expect(said.length).toBeGreaterThan(0);
    expect(said.filter((v) => v !== version)).toEqual([]);
  });
});
