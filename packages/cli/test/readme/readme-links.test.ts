// Every relative link of the README and the docs pages leads somewhere: the file exists, and an
// anchor names a heading (or an HTML anchor) of the page it points into. The README was split into
// pages (issue 29): a moved section must not leave a link behind it.
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anchorsOf, relativeLinks } from './doc-links.js';
import { ROOT, documentText, markdownDocuments } from './readme-blocks.js';

describe('links of the README and the docs pages', () => {
  const documents = markdownDocuments();

  it('every docs page is reachable from the README by its links (none is an orphan)', () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const link of relativeLinks(documentText(file))) {
        const path = new URL(link.path, new URL(file, ROOT)).pathname.slice(ROOT.pathname.length);
        if (documents.includes(path) && !reached.has(path)) {
          reached.add(path);
          queue.push(path);
        }
      }
    }
    expect(documents.filter((file) => !reached.has(file))).toEqual([]);
  });

  it.each(documents)('%s: every relative link resolves to a file, and its anchor to a heading', (file) => {
    const here = new URL(file, ROOT);
    const broken: string[] = [];
    for (const link of relativeLinks(documentText(file))) {
      const target = link.path === '' ? here : new URL(link.path, here);
      if (!target.href.startsWith(ROOT.href) || !existsSync(target)) {
        broken.push(`${file}:${link.line} ${link.target}: no such file`);
        continue;
      }
      if (link.anchor === '') continue;
      if (statSync(target).isDirectory() || !target.pathname.endsWith('.md')) {
        broken.push(`${file}:${link.line} ${link.target}: an anchor into something that is not a page`);
      } else if (!anchorsOf(documentText(target.pathname.slice(ROOT.pathname.length))).has(link.anchor)) {
        broken.push(`${file}:${link.line} ${link.target}: no heading with that anchor`);
      }
    }
    expect(broken).toEqual([]);
  });
});
