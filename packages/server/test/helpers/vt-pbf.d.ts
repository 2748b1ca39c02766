// vt-pbf ships no types: the one function the tests use (serialise geojson-vt tiles as MVT).
declare module 'vt-pbf' {
  export function fromGeojsonVt(layers: Record<string, unknown>, options?: { version?: number }): Uint8Array;
}
