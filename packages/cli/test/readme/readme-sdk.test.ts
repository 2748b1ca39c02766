// The README's SDK and server examples, run as a user runs them: as programs, with node, against a
// real Waypost server (the placeholder hosts point at it; nothing else is changed).
import { describe, expect, it } from 'vitest';
import { block } from './readme-blocks.js';
import { pointAt, runTsExample, startWorld, storedAtLeast, storedCount, userFolder } from './readme-world.js';

const FINISHED = "\nconsole.log('example finished');\n";

describe('README: the SDK', () => {
  it('the object-style example uploads its location as truck-17', async () => {
    const { dir, server } = await startWorld();
    const example = runTsExample(pointAt(block('sdk-object-style').code, server), dir);
    await example.waitFor(/^true 200 /m);
    await storedAtLeast(server, 'truck-17', 1);
    expect(await storedCount(server, 'truck-17')).toBe(1);
  });

  it('the object-style example, with stop() or close() after it, ends the program with exit 0', async () => {
    const { dir, server } = await startWorld();
    for (const end of ['await bg.stop();', 'await bg.close();']) {
      const code = `${block('sdk-object-style').code}${end}\n`;
      const example = runTsExample(pointAt(code, server), dir, `ends-${end.slice(9, 14)}`);
      expect(await example.exited, example.output()).toBe(0);
    }
    expect(await storedCount(server, 'truck-17')).toBeGreaterThanOrEqual(1);
  });

  it('the property-style example, run after it, syncs and prints an empty queue', async () => {
    const { dir, server } = await startWorld();
    const code = block('sdk-object-style').code + block('sdk-property-style').code;
    const example = runTsExample(pointAt(code, server), dir);
    await example.waitFor(/^queued: 0$/m);
    expect(await storedCount(server, 'truck-17')).toBe(1);
  });

  it('the authorization example is accepted by ready()', async () => {
    const { dir, server } = await startWorld();
    const code = block('sdk-object-style').code + block('authorization').code + FINISHED;
    const example = runTsExample(pointAt(code, server), dir);
    await example.waitFor(/^example finished$/m);
    expect(example.output()).not.toMatch(/Error/);
  });
});

describe('README: the server', () => {
  it('startServer() prints its URL and admin token, then closes, and the program exits 0', async () => {
    const dir = userFolder();
    const code = block('server-start').code.replace('port: 8080', 'port: 0');
    const example = runTsExample(code, dir);
    expect(await example.exited).toBe(0);
    expect(example.output()).toMatch(/^http:\/\/127\.0\.0\.1:\d+ \S{20,}$/m);
  });
});
