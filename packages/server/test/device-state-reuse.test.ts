// A device's fleet-event state is taken from what this process last wrote instead of parsed again
// (device-state-store.ts), but only while the row holds that very text: what evaluation then sees
// is always what JSON.parse of the row would give, whatever was changed in place or rolled back.
import { describe, expect, it } from 'vitest';
import { parseDeviceState, rawState } from '../src/fleet/device-state-store.js';
import { emptyDeviceState, type DeviceEventState } from '../src/fleet/evaluate-device.js';

const point = (t: number) => ({ t, lat: 48, lon: 11, uuid: `u${t}`, record: { uuid: `u${t}` } });

function evaluated(): DeviceEventState {
  const state = emptyDeviceState();
  // As JSON.parse defines them: "__proto__" an own key like any identifier.
  state.fences = Object.fromEntries([
    ['depot', { inside: true, enteredAt: 1000, dwelled: false }],
    ['__proto__', { inside: true, enteredAt: 2000, dwelled: true }],
  ]);
  state.trip = { ...state.trip, first: point(1), anchor: point(2), last: point(3), count: 3, started: true };
  return state;
}

describe('fleet-event state kept from the last write', () => {
  it('gives what parsing the row would: equal, points without uuid or record, own "__proto__" key', () => {
    const written = rawState({ deviceId: 'reuse-a', cursor: 3, state: evaluated(), silentSince: null });
    const taken = parseDeviceState('reuse-a', written);
    expect(taken.state).toStrictEqual(JSON.parse(written.state));
    expect(Object.keys(taken.state.fences)).toEqual(['depot', '__proto__']);
  });

  it('is not what the caller goes on changing, and is taken once', () => {
    const state = evaluated();
    const written = rawState({ deviceId: 'reuse-b', cursor: 3, state, silentSince: null });
    state.fences['depot']!.inside = false;
    state.trip.count = 99;
    const first = parseDeviceState('reuse-b', written);
    expect(first.state).toStrictEqual(JSON.parse(written.state));
    // Evaluation changes the state in place; the row still holds the text (no new write yet).
    first.state.trip.count = 7;
    first.state.fences['depot']!.dwelled = true;
    expect(parseDeviceState('reuse-b', written).state).toStrictEqual(JSON.parse(written.state));
  });

  it('parses the row when it holds another text (a write rolled back, another process)', () => {
    const before = rawState({ deviceId: 'reuse-c', cursor: 1, state: emptyDeviceState(), silentSince: null });
    rawState({ deviceId: 'reuse-c', cursor: 3, state: evaluated(), silentSince: null });
    const taken = parseDeviceState('reuse-c', before);
    expect(taken.state).toStrictEqual(emptyDeviceState());
    expect(taken.cursor).toBe(1);
  });
});
