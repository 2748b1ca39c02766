// The engine runs the tracking provider (issue 18): given to the engine, it runs exactly while
// tracking is enabled, its fixes are recorded in order, its errors go to the log, and stop() and
// close() wait for the fix being recorded. (That createBackgroundGeolocation refuses a provider
// without stop() is the Node adapter's option check: packages/node/test/tracking-provider.test.ts.)
import { describe, expect, it } from 'vitest';
import { ManualNetwork, at, scriptedProvider } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';

async function withProvider() {
  const script = scriptedProvider();
  const { bg } = await openedEngine({ network: new ManualNetwork('none'), trackingProvider: script.provider });
  await bg.ready({ http: { autoSync: false } });
  return { bg, script };
}

describe('trackingProvider', () => {
  it('runs while tracking is enabled: fixes are recorded in order; stopped with tracking', async () => {
    const { bg, script } = await withProvider();
    expect(script.counts.started).toBe(0);
    await bg.start();
    expect(script.counts.started).toBe(1);
    await script.fix(at(0));
    await script.fix(at(1));
    const recorded = (await bg.getLocations()) as { coords: { latitude: number } }[];
    expect(recorded.map((l) => l.coords.latitude)).toEqual([at(0).latitude, at(1).latitude]);
    await bg.stop();
    expect(script.counts.stopped).toBe(1);
    await script.fix(at(2)); // a fix after stop() is not recorded
    expect(await bg.getCount()).toBe(2);
    await bg.close();
  });

  it("reports the provider's errors in the SDK log, and close() stops it", async () => {
    const { bg, script } = await withProvider();
    await bg.start();
    script.fail();
    expect(await bg.logger.getLog()).toMatch(/script: receiver unplugged/);
    await bg.close();
    expect(script.counts.stopped).toBe(1);
  });
});
