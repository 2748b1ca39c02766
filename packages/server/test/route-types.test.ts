// Issue 44: a route's handler gets its types from the route's schemas (the type provider), so the
// schema is the contract the handler is checked against. A hand-written request generic on a
// route registration (`app.get<{ Querystring: ... }>`) or a cast of what the request carries
// (`request.query as ...`) would let the two drift apart unseen; only the casts listed here, each
// with why the schema cannot type it, are allowed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The casts the provider cannot replace: `file: text` of the cast, with the reason. */
const ALLOWED: Record<string, string> = {
  'audit/audit-trail.ts: request.params as': "an onSend hook over every route: no one route's schema types its params",
  'accounts/user-access.ts: request.params as':
    "the role gate of every route: it reads an :id only where the route's schema declares one",
  'routes/session.ts: request.body as':
    "the login body's oneOf admits exactly two shapes; the provider's type keeps every key optional",
};

/** A hand-written request generic on a route registration, or a cast of the request's parts. */
const FORBIDDEN = [
  /\.(get|post|put|patch|delete|head|options|all|route)<\s*\{/g,
  /request\.(query|params|body)\s+as\b/g,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every occurrence, as `file: text` (the registration's or cast's own words), with its line. */
function occurrences(): { key: string; line: string }[] {
  return sources(SRC).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const file = relative(SRC, path).split('\\').join('/');
    return FORBIDDEN.flatMap((pattern) =>
      [...text.matchAll(pattern)].map((match) => {
        const lineNo = text.slice(0, match.index).split('\n').length;
        const words = match[0].replace(/\s+/g, ' ').replace(/<\s*\{$/, '<{');
        return { key: `${file}: ${words}`, line: `${file}:${lineNo}: ${text.split('\n')[lineNo - 1]!.trim()}` };
      }),
    );
  });
}

describe("route handlers' types", () => {
  it('come from the route schemas: no hand-written request generics, no casts of the request but those allowed', () => {
    const found = occurrences();
    expect(found.filter((o) => !(o.key in ALLOWED)).map((o) => o.line)).toEqual([]);
  });

  it('allows only casts that are still there (the list shrinks as the code does)', () => {
    const keys = new Set(occurrences().map((o) => o.key));
    expect(Object.keys(ALLOWED).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('finds what it forbids (the patterns match a registration generic and a cast)', () => {
    const sample = "app.get<{ Params: { id: string } }>('/x', h);\nconst q = request.query as Query;";
    expect(FORBIDDEN.map((p) => [...sample.matchAll(p)].length)).toEqual([1, 1]);
  });
});
