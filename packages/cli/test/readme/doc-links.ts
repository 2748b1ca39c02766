// The relative links of a Markdown document and the anchors it offers, as GitHub renders them: what
// readme-links.test.ts resolves so that no link of the README or the docs pages leads nowhere.

const FENCED = /^\s*```[^\n]*\n[\s\S]*?^\s*```[ \t]*$/gm;

/** The text with fenced blocks blanked (lines kept, so line numbers hold). */
const withoutFences = (text: string) => text.replace(FENCED, (block) => block.replace(/[^\n]/g, ''));

/** Text outside fenced blocks and inline code spans (a link shown as code is not a link). */
const prose = (text: string) => withoutFences(text).replace(/`[^`\n]*`/g, 'code');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6} (.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

export interface DocLink {
  /** The link as written. */
  target: string;
  /** The file part (empty for a link to an anchor of the same document). */
  path: string;
  /** The anchor part, without '#', or ''. */
  anchor: string;
  line: number;
}

/** Links to files of the repository: Markdown links and images, and HTML src/href attributes. */
export function relativeLinks(text: string): DocLink[] {
  const links: DocLink[] = [];
  prose(text)
    .split('\n')
    .forEach((lineText, index) => {
      const targets = [
        ...[...lineText.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
        ...[...lineText.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
      ];
      for (const target of targets) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
        const hash = target.indexOf('#');
        links.push({
          target,
          path: hash < 0 ? target : target.slice(0, hash),
          anchor: hash < 0 ? '' : target.slice(hash + 1),
          line: index + 1,
        });
      }
    });
  return links;
}
