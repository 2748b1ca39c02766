// What a user checks before adopting the project: a licence, and an `engines` promise that every
// installed dependency keeps (npm warns at install time when one does not).
import { readFileSync, readdirSync } from 'node:fs';
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
});
