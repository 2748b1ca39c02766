// ManualNetwork, the network double the kit ships (and embedders that know their link use): what
// it reports reaches the engine as connectivity events and as the upload policy's network.
import { describe, expect, it } from 'vitest';
import type { ConnectivityChangeEvent, NetworkType } from '@waypost/sdk';
import { ManualNetwork, at } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

describe('ManualNetwork', () => {
  it('fires onConnectivityChange on each change, and only on a change', async () => {
    const network = new ManualNetwork('wifi');
    const { bg } = await openedEngine({ network });
    const events: ConnectivityChangeEvent[] = [];
    bg.onConnectivityChange((event) => events.push(event));
    network.set('none');
    network.set('none');
    network.set({ type: 'cellular' });
    network.set('ethernet');
    expect(events).toEqual([
      { connected: false, type: 'none' },
      { connected: true, type: 'cellular' },
      { connected: true, type: 'ethernet' },
    ]);
    expect(() => network.set('5g' as NetworkType)).toThrow(TypeError);
    expect(network.current()).toBe('ethernet');
  });

  it('the constructor takes what set() takes and rejects anything else', async () => {
    const cellular = new ManualNetwork({ type: 'cellular' });
    expect(cellular.current()).toBe('cellular');
    expect(new ManualNetwork('none').current()).toBe('none');
    expect(() => new ManualNetwork('lte' as NetworkType)).toThrow(TypeError);
    expect(() => new ManualNetwork({ type: 'bogus' } as unknown as NetworkType)).toThrow(TypeError);
    expect(() => new ManualNetwork({} as unknown as NetworkType)).toThrow(TypeError);
    // Cellular means cellular: with disableAutoSyncOnCellular, nothing is uploaded automatically.
    const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network: cellular });
    await bg.store.insertLocation(at(0));
    await bg.idle();
    expect(server.requests).toHaveLength(0);
    expect(await bg.getCount()).toBe(1);
  });
});
