// A device's colour comes from its id alone: the same device has the same colour on every page
// load, whatever other devices exist or how the list sorts. The id's hash (FNV-1a, then a final
// mix so ids that differ in one character land far apart) picks one of twenty colours chosen to
// stay apart from each other and readable as lines on the light map. Twenty is not enough for a
// fleet never to repeat one: the list's swatch and the name in every tooltip tell such devices apart.

const PALETTE = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#0f9bb5',
  '#d6249f',
  '#9a6324',
  '#800000',
  '#469990',
  '#000075',
  '#808000',
  '#c79100',
  '#5d5d5d',
  '#ff6f91',
  '#2e7d32',
  '#7b61ff',
  '#b5651d',
  '#00897b',
  '#c2185b',
];

function hashOf(text) {
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
export function colourOf(id) {
  return PALETTE[hashOf(String(id)) % PALETTE.length];
}
