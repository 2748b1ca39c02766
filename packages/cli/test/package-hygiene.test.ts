// What a user checks before adopting the project: a licence, an `engines` promise that every
// installed dependency keeps (npm warns at install time when one does not), and published types
// that compile in the user's project (README: `npm pack` the packages and install the tarballs).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as Record<string, unknown>;
const manifests = ['package.json', ...readdirSync(new URL('packages/', root)).map((p) => `packages/${p}/package.json`)];

describe('package hygiene', () => {
  it('ships an OSI licence, named by every package.json', () => {
    expect(readFileSync(new URL('LICENSE', root), 'utf8')).toMatch(/^MIT License/);
    for (const path of manifests) expect(readJson(path).license, path).toBe('MIT');
  });

  it('states one Node.js minimum that every locked dependency supports', () => {
    const engines = manifests.map((path) => (readJson(path).engines as { node?: string } | undefined)?.node);
    expect(new Set(engines)).toEqual(new Set([engines[0]]));
    const minimum = semver.minVersion(engines[0]!)!.version;
    const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies(minimum, entry.engines!.node!))
      .map(([name, entry]) => `${name} wants node ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it("publishes types that need only the package's own dependencies", () => {
    const missing: string[] = [];
    for (const dir of readdirSync(new URL('packages/', root))) {
      const manifest = readJson(`packages/${dir}/package.json`);
      const deps = new Set(
        Object.keys({ ...(manifest.dependencies as object), ...(manifest.peerDependencies as object) }),
      );
      for (const name of importedByTypes(new URL(`packages/${dir}/dist/`, root))) {
        if (!deps.has(name)) missing.push(`${manifest.name as string}: its types import ${name}, not a dependency`);
        else if (!shipsTypes(name) && !deps.has(`@types/${name}`)) {
          missing.push(
            `${manifest.name as string}: its types import ${name}, which has none: @types/${name} is needed`,
          );
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

/** The packages the .d.ts files under `dist` import (bare specifiers; node: built-ins aside). */
function importedByTypes(dist: URL): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
  for (const file of files) {
    const text = readFileSync(new URL(file, dist), 'utf8');
    for (const [, spec] of text.matchAll(/(?:from|import\()\s*'([^'.][^']*)'/g)) {
      if (spec!.startsWith('node:')) continue;
      const parts = spec!.split('/');
      names.add(spec!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return names;
}

/** Whether an installed package carries its own type declarations. */
function shipsTypes(name: string): boolean {
  const dir = new URL(`node_modules/${name}/`, root);
  const manifest = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as Record<string, unknown>;
  return (
    Boolean(manifest.types ?? manifest.typings) ||
    /"types"/.test(JSON.stringify(manifest.exports ?? {})) ||
    existsSync(new URL('index.d.ts', dir))
  );
}
