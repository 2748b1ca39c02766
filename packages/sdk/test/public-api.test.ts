// Issue 18: the public entry is curated. Semver covers exactly these values (and the types beside
// them); everything the adapters, server and CLI share beyond them is in '@waypost/sdk/internal'.
// Adding a public name is a decision: this list changes with it.
import { describe, expect, it } from 'vitest';
import * as publicApi from '../src/index.js';
import * as internal from '../src/internal.js';
import * as testing from '../src/testing/index.js';

describe("@waypost/sdk's public entry", () => {
  it('exports the facade, its errors, the ports and the doubles, nothing of the engine', () => {
    expect(Object.keys(publicApi).sort()).toEqual([
      'BackgroundGeolocation',
      'LogLevel',
      'MAX_RESPONSE_BYTES',
      'MOTION_ACTIVITY_TYPES',
      'ManualClock',
      'ManualNetwork',
      'NETWORK_TYPES',
      'OPEN_GATE',
      'ORDER_ASC',
      'ORDER_DESC',
      'SDK_VERSION',
      'SEQUENCE_KEY',
      'WaypostError',
      'createFetchTransport',
      'createMemoryStore',
      'isWaypostError',
      'systemClock',
    ]);
  });

  it('is part of the internal entry, which adds the engine pieces the other packages share', () => {
    for (const name of Object.keys(publicApi)) expect(internal).toHaveProperty(name);
    expect(internal).toHaveProperty('decideAfterOutcome');
    expect(publicApi).not.toHaveProperty('decideAfterOutcome');
  });

  it('has a test kit entry: the doubles it shares with the public entry, the scripted server and the engine harness', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'ManualClock',
      'ManualNetwork',
      'SCRIPTED_URL',
      'advanceUntil',
      'at',
      'createMemoryStore',
      'createScriptedServer',
      'drainMicrotasks',
      'openEngine',
      'scriptedProvider',
      'startEngine',
      'uuidsOf',
      'within',
    ]);
    for (const name of ['ManualClock', 'ManualNetwork', 'createMemoryStore'] as const)
      expect(testing[name]).toBe(publicApi[name]);
  });
});
