// A device's colour comes from its id alone: the same device has the same colour on every page
// load, whatever other devices exist or how the list sorts. FNV-1a spreads similar ids apart; the
// hue is scaled by the golden angle so neighbouring hashes differ visibly, and a few lightness and
// saturation steps multiply the distinct colours past what hue alone gives on a light map.

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function hslToHex(h, s, l) {
  const a = s * Math.min(l, 1 - l);
  const channel = (n) => {
    const k = (n + h / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return '#' + channel(0) + channel(8) + channel(4);
}

const GOLDEN_ANGLE = 137.508;
const LIGHTNESS = [0.36, 0.44, 0.52];
const SATURATION = [0.85, 0.65];

/** '#rrggbb' for a device id: stable, and dark enough to read as a line on the light basemap. */
export function colourOf(id) {
  const hash = fnv1a(String(id));
  const hue = ((hash & 0xffff) * GOLDEN_ANGLE) % 360;
  const lightness = LIGHTNESS[(hash >>> 16) % LIGHTNESS.length];
  const saturation = SATURATION[(hash >>> 20) % SATURATION.length];
  return hslToHex(hue, saturation, lightness);
}
