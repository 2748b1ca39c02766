/* global L, AbortSignal */
// The vector basemap: a MapLibre style drawn by MapLibre GL JS inside the Leaflet map (through
// MapLibre's own Leaflet binding), under the tracks and markers that stay Leaflet's SVG, text and
// DOM. Both come from this server's node_modules; the style, its tiles, glyphs and sprites from
// the style's origin, which the Content-Security-Policy names. Anything that keeps the style from
// drawing (no WebGL, the style unreachable or not a style, its tiles failing before the first
// frame) rejects, with a reason a person can read, and the caller falls back to the outline.

/** A style that has not answered by then is as good as unreachable: fall back rather than wait. */
const STYLE_TIMEOUT_MS = 10_000;
const FIRST_FRAME_TIMEOUT_MS = 20_000;

let loading = null;
/** MapLibre (an ES module) and the binding (a script that reads window.maplibregl), once. */
function loadMapLibre() {
  loading ??= import('/vendor/maplibre-gl/maplibre-gl.mjs').then(
    (maplibregl) =>
      new Promise((resolve, reject) => {
        window.maplibregl = maplibregl;
        const script = document.createElement('script');
        script.src = '/vendor/maplibre-gl-leaflet/leaflet-maplibre-gl.js';
        script.onload = () => resolve(maplibregl);
        script.onerror = () => reject(new Error('the map library did not load'));
        document.head.append(script);
      }),
  );
  return loading;
}

function webglAvailable() {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') || canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', nbsp: ' ' };

/**
 * A credit from a style (often HTML) as plain text: tags dropped, common entities read. Never
 * parsed as HTML (not even into an inert document), so markup from elsewhere does nothing.
 */
function plainText(html) {
  return String(html)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (entity, name) =>
      name[0] === '#' ? String.fromCharCode(Number(name.slice(1))) : (ENTITIES[name.toLowerCase()] ?? entity),
    )
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** Escaped for Leaflet's attribution control, which takes HTML. */
const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/**
 * A URL in a style, absolute against the style's own address (MapLibre needs absolute ones); a
 * template's {z}/{x}/{y} and {fontstack}/{range} kept as they are (URL() would escape the braces).
 */
const absolute = (url, base) =>
  typeof url !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(url)
    ? url
    : new URL(url, base).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');

async function fetchStyle(styleUrl) {
  const base = new URL(styleUrl, window.location.href).href;
  let response;
  try {
    response = await fetch(base, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS), credentials: 'omit' });
  } catch (error) {
    throw new Error(error.name === 'TimeoutError' ? 'the style did not answer' : 'the style could not be reached', {
      cause: error,
    });
  }
  if (!response.ok) throw new Error('the style answered HTTP ' + response.status);
  const style = await response.json().catch(() => null);
  if (!style || style.version !== 8 || typeof style.sources !== 'object')
    throw new Error('the address does not hold a map style');
  for (const source of Object.values(style.sources)) {
    if (source.url) source.url = absolute(source.url, base);
    if (Array.isArray(source.tiles)) source.tiles = source.tiles.map((tile) => absolute(tile, base));
  }
  if (style.glyphs) style.glyphs = absolute(style.glyphs, base);
  if (typeof style.sprite === 'string') style.sprite = absolute(style.sprite, base);
  return style;
}

/**
 * Adds the style under the map's overlays; resolves once its first frame is drawn. `credit` is
 * the server's plain-text attribution, else the style's sources' own (as text).
 */
export async function addVectorBasemap(map, styleUrl, credit) {
  if (!webglAvailable()) throw new Error('this browser has no WebGL');
  const [style] = await Promise.all([fetchStyle(styleUrl), loadMapLibre()]);
  const credits = credit
    ? [credit]
    : Object.values(style.sources)
        .map((source) => (source.attribution ? plainText(source.attribution) : ''))
        .filter(Boolean);
  const layer = L.maplibreGL({
    style,
    className: 'basemap-gl',
    attributionControl: { customAttribution: escapeHtml(credits.join(' · ')) },
  });
  layer.addTo(map);
  const gl = layer.getMaplibreMap();
  await new Promise((resolve, reject) => {
    // A missing tile here and there (a local file covering one city) is normal; a style that
    // breaks, or tiles that all fail, is not a basemap.
    let tilesLoaded = 0;
    let tilesFailed = 0;
    let lastError = '';
    const timer = setTimeout(() => reject(new Error('the map did not draw')), FIRST_FRAME_TIMEOUT_MS);
    const onData = (event) => {
      if (event.tile) tilesLoaded++;
    };
    const onError = (event) => {
      lastError = event && event.error && event.error.message ? event.error.message : 'unknown error';
      if (event && (event.tile || event.sourceId)) tilesFailed++;
      else done(new Error(lastError));
    };
    const done = (error) => {
      clearTimeout(timer);
      gl.off('sourcedata', onData);
      gl.off('error', onError);
      gl.off('idle', onIdle);
      if (error) reject(error);
      else resolve();
    };
    const onIdle = () =>
      done(
        tilesFailed > 0 && tilesLoaded === 0 ? new Error('its tiles could not be loaded (' + lastError + ')') : null,
      );
    gl.on('sourcedata', onData);
    gl.on('error', onError);
    gl.on('idle', onIdle);
  }).catch((error) => {
    map.removeLayer(layer);
    throw error;
  });
  map.getContainer().classList.add('has-tiles', 'has-vector-basemap');
  return gl;
}
