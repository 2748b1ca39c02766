// The SDK's default record as the benches' floors and queue fills render it without the SDK, in
// Node and in Chromium (bench/lib/browser-page.mjs; served to the SQLite-wasm worker by
// bench/browser.mjs): same keys in the same order as the SDK writes, so that a floor stores and
// sends what the SDK does.

/** Fix i of a slowly moving device, as a provider hands it in (the odometer does real work). */
export function movingFix(i) {
  return {
    latitude: 45.5 + i * 1e-5,
    longitude: -73.6 + i * 1e-5,
    accuracy: 5,
    speed: 1.2,
    heading: 90,
    altitude: 30,
  };
}

/**
 * The record the SDK makes of `fix` with the default configuration. The caller gives the uuid (its
 * own generator: Node's or the page's crypto), the timestamp and the odometer.
 */
export function defaultRecord(fix, { uuid, timestamp, odometer = 0 }) {
  return {
    uuid,
    timestamp,
    is_moving: false,
    odometer,
    coords: { ...fix, altitude_accuracy: -1 },
    activity: { type: 'unknown', confidence: -1 },
    battery: { level: -1, is_charging: false },
    extras: {},
  };
}
