// A device's colour comes from its id alone: the same device has the same colour on every page
// load, whatever other devices exist or how the list sorts. The id's hash (FNV-1a, then a final
// mix so ids that differ in one character land far apart) picks one of twenty colours, readable as
// lines on the street map and far from the state colours (vehicle-state.js: green moving, amber
// parked, grey silent) and the geofence events' yellow: reds, pinks, purples and blues only (each
// at least 40 CIE76 ΔE from every state colour, picked greedily to stay apart from each other), so
// a colour means one thing. Twenty repeat in a fleet: the name beside every marker tells them apart.

export const PALETTE = [
  '#e6194b',
  '#00bfff',
  '#7209b7',
  '#e377c2',
  '#023e8a',
  '#1e90ff',
  '#ff1493',
  '#c77dff',
  '#b5179e',
  '#000075',
  '#ff6f91',
  '#6a5acd',
  '#5b2c83',
  '#7b61ff',
  '#b8006b',
  '#ff006e',
  '#800020',
  '#dda0dd',
  '#9d4edd',
  '#191970',
];

function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // MurmurHash3's finalizer: every input bit moves every output bit.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** '#rrggbb' for a device id: stable, whatever else is on the page. */
export function colourOf(id: unknown): string {
  return PALETTE[hashOf(String(id)) % PALETTE.length] as string;
}
