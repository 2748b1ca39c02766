// The anchor's app code reads its enums off the SDK object: BackgroundGeolocation.LogLevel.Verbose
// (v5) or BackgroundGeolocation.LOG_LEVEL_VERBOSE (v4). On Waypost the instance is that object.
import * as anchor from '@transistorsoft/background-geolocation-types';
import { BackgroundGeolocation } from '@waypost/sdk';
import { describe, expect, it } from 'vitest';
import { openedEngine } from './support/engine.js';

/** Every enum the anchor's types package exports, by name. */
const anchorEnums = Object.fromEntries(
  Object.entries(anchor).filter(([, value]) => typeof value === 'object' && value !== null),
);

describe("the anchor's enums on the SDK object", () => {
  it('are every enum of the anchor, with its values, on the instance and on BackgroundGeolocation', async () => {
    const { bg } = await openedEngine();
    expect(Object.keys(anchorEnums).length).toBeGreaterThan(20);
    for (const [name, values] of Object.entries(anchorEnums)) {
      expect((bg as unknown as Record<string, unknown>)[name], name).toEqual(values);
      expect((BackgroundGeolocation as unknown as Record<string, unknown>)[name], name).toEqual(values);
    }
    expect(bg.LogLevel.Verbose).toBe(5);
    expect(Object.isFrozen(bg.LogLevel)).toBe(true);
  });

  it('have the v4 constants, named as the anchor named them', async () => {
    const { bg } = await openedEngine();
    expect({
      LOG_LEVEL_OFF: bg.LOG_LEVEL_OFF,
      LOG_LEVEL_VERBOSE: bg.LOG_LEVEL_VERBOSE,
      DESIRED_ACCURACY_NAVIGATION: bg.DESIRED_ACCURACY_NAVIGATION,
      DESIRED_ACCURACY_HIGH: bg.DESIRED_ACCURACY_HIGH,
      DESIRED_ACCURACY_VERY_LOW: bg.DESIRED_ACCURACY_VERY_LOW,
      PERSIST_MODE_GEOFENCE: bg.PERSIST_MODE_GEOFENCE,
      AUTHORIZATION_STATUS_NOT_DETERMINED: bg.AUTHORIZATION_STATUS_NOT_DETERMINED,
      AUTHORIZATION_STATUS_WHEN_IN_USE: bg.AUTHORIZATION_STATUS_WHEN_IN_USE,
      NOTIFICATION_PRIORITY_MIN: bg.NOTIFICATION_PRIORITY_MIN,
      ACTIVITY_TYPE_AUTOMOTIVE_NAVIGATION: bg.ACTIVITY_TYPE_AUTOMOTIVE_NAVIGATION,
      ACCURACY_AUTHORIZATION_REDUCED: bg.ACCURACY_AUTHORIZATION_REDUCED,
    }).toEqual({
      LOG_LEVEL_OFF: 0,
      LOG_LEVEL_VERBOSE: 5,
      DESIRED_ACCURACY_NAVIGATION: -2,
      DESIRED_ACCURACY_HIGH: -1,
      DESIRED_ACCURACY_VERY_LOW: 1000,
      PERSIST_MODE_GEOFENCE: -1,
      AUTHORIZATION_STATUS_NOT_DETERMINED: 0,
      AUTHORIZATION_STATUS_WHEN_IN_USE: 4,
      NOTIFICATION_PRIORITY_MIN: -2,
      ACTIVITY_TYPE_AUTOMOTIVE_NAVIGATION: 2,
      ACCURACY_AUTHORIZATION_REDUCED: 1,
    });
  });

  it('configure the SDK as the anchor README writes it', async () => {
    const { bg, server } = await openedEngine();
    const state = await bg.ready({
      url: `${server.url}/locations`,
      desiredAccuracy: bg.DESIRED_ACCURACY_HIGH,
      logLevel: bg.LOG_LEVEL_VERBOSE,
      persistence: { persistMode: bg.PersistMode.All, locationsOrderDirection: bg.SQLQueryOrder.Desc },
      logger: { logLevel: bg.LogLevel.Debug },
    });
    expect(state.logger?.logLevel).toBe(4);
    expect(state.persistence?.locationsOrderDirection).toBe('DESC');
  });
});
