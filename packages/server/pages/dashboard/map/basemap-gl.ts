// The vector basemap: a MapLibre style drawn by MapLibre GL JS inside the Leaflet map (through
// MapLibre's own Leaflet binding), under the tracks and markers that stay Leaflet's SVG, text and
// DOM. Both come from this server's node_modules; the style, its tiles, glyphs and sprites from
// the style's origin, which the Content-Security-Policy names. Anything that keeps the style from
// drawing (no WebGL, the style unreachable or not a style, its tiles failing before the first
// frame) rejects, with a reason a person can read, and the caller falls back to the outline.
import type { Map as GlMap, StyleSpecification } from 'maplibre-gl';

type MapLibre = typeof import('maplibre-gl');

/** A style that has not answered by then is as good as unreachable: fall back rather than wait. */
const STYLE_TIMEOUT_MS = 10_000;
const FIRST_FRAME_TIMEOUT_MS = 20_000;
/** Served by this server (routes/dashboard.ts); a variable, so neither tsc nor esbuild resolves it. */
const MAPLIBRE_MODULE: string = '/vendor/maplibre-gl/maplibre-gl.mjs';

let loading: Promise<MapLibre> | null = null;
/** MapLibre (an ES module) and the binding (a script that reads window.maplibregl), once. */
function loadMapLibre(): Promise<MapLibre> {
  loading ??= (import(MAPLIBRE_MODULE) as Promise<MapLibre>).then(
    (maplibregl) =>
      new Promise<MapLibre>((resolve, reject) => {
        (window as unknown as { maplibregl: MapLibre }).maplibregl = maplibregl;
        const script = document.createElement('script');
        script.src = '/vendor/maplibre-gl-leaflet/leaflet-maplibre-gl.js';
        script.onload = () => resolve(maplibregl);
        script.onerror = () => reject(new Error('the map library did not load'));
        document.head.append(script);
      }),
  );
  return loading;
}

function webglAvailable(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') || canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', nbsp: ' ' };

/**
 * A credit from a style (often HTML) as plain text: tags dropped, common entities read. Never
 * parsed as HTML (not even into an inert document), so markup from elsewhere does nothing.
 */
function plainText(html: unknown): string {
  return String(html)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (entity, name: string) =>
      name[0] === '#' ? String.fromCharCode(Number(name.slice(1))) : (ENTITIES[name.toLowerCase()] ?? entity),
    )
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escaped for Leaflet's attribution control, which takes HTML. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * A URL in a style, absolute against the style's own address (MapLibre needs absolute ones); a
 * template's {z}/{x}/{y} and {fontstack}/{range} kept as they are (URL() would escape the braces).
 */
const absolute = <T>(url: T, base: string): T | string =>
  typeof url !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(url)
    ? url
    : new URL(url, base).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');

/** A source of a style as read before MapLibre checks it: the fields rewritten or credited here. */
type LooseSource = { url?: unknown; tiles?: unknown; attribution?: unknown };
/** Whatever a style's address answered, before it is known to be a style. */
type LooseStyle = { version?: unknown; sources?: unknown; glyphs?: unknown; sprite?: unknown };

async function fetchStyle(styleUrl: string): Promise<StyleSpecification> {
  const base = new URL(styleUrl, window.location.href).href;
  let response: Response;
  try {
    response = await fetch(base, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS), credentials: 'omit' });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new Error(timedOut ? 'the style did not answer' : 'the style could not be reached', { cause: error });
  }
  if (!response.ok) throw new Error('the style answered HTTP ' + response.status);
  const style = (await response.json().catch(() => null)) as LooseStyle | null;
  if (!style || style.version !== 8 || typeof style.sources !== 'object' || style.sources === null)
    throw new Error('the address does not hold a map style');
  for (const source of Object.values(style.sources as Record<string, LooseSource>)) {
    if (source.url) source.url = absolute(source.url, base);
    if (Array.isArray(source.tiles)) source.tiles = source.tiles.map((tile: unknown) => absolute(tile, base));
  }
  if (style.glyphs) style.glyphs = absolute(style.glyphs, base);
  if (typeof style.sprite === 'string') style.sprite = absolute(style.sprite, base);
  // MapLibre validates the rest itself and reports what it cannot draw (the 'error' event below).
  return style as StyleSpecification;
}

/** Resolves once the style's first frame is drawn; rejects when it breaks or its tiles all fail. */
function firstFrame(gl: GlMap): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // A missing tile here and there (a local file covering one city) is normal; a style that
    // breaks, or tiles that all fail, is not a basemap.
    let tilesLoaded = 0;
    let tilesFailed = 0;
    let lastError = '';
    const timer = setTimeout(() => reject(new Error('the map did not draw')), FIRST_FRAME_TIMEOUT_MS);
    const onData = (event: { tile?: unknown }): void => {
      if (event.tile) tilesLoaded++;
    };
    const onError = (event: { error?: { message?: string }; tile?: unknown; sourceId?: unknown }): void => {
      lastError = event?.error?.message ? event.error.message : 'unknown error';
      if (event && (event.tile || event.sourceId)) tilesFailed++;
      else done(new Error(lastError));
    };
    const onIdle = (): void =>
      done(
        tilesFailed > 0 && tilesLoaded === 0 ? new Error('its tiles could not be loaded (' + lastError + ')') : null,
      );
    const done = (error: Error | null): void => {
      clearTimeout(timer);
      gl.off('sourcedata', onData);
      gl.off('error', onError);
      gl.off('idle', onIdle);
      if (error) reject(error);
      else resolve();
    };
    gl.on('sourcedata', onData);
    gl.on('error', onError);
    gl.on('idle', onIdle);
  });
}

/**
 * Adds the style under the map's overlays; resolves once its first frame is drawn. `credit` is
 * the server's plain-text attribution, else the style's sources' own (as text).
 */
export async function addVectorBasemap(map: L.Map, styleUrl: string, credit?: string | null): Promise<GlMap> {
  if (!webglAvailable()) throw new Error('this browser has no WebGL');
  const [style] = await Promise.all([fetchStyle(styleUrl), loadMapLibre()]);
  const credits = credit
    ? [credit]
    : Object.values(style.sources as Record<string, LooseSource>)
        .map((source) => (source.attribution ? plainText(source.attribution) : ''))
        .filter(Boolean);
  // className: the binding's own option (its canvas's class), beside those it passes to MapLibre.
  const options: Parameters<typeof L.maplibreGL>[0] & { className: string } = {
    style,
    className: 'basemap-gl',
    attributionControl: { customAttribution: escapeHtml(credits.join(' · ')) },
  };
  const layer = L.maplibreGL(options);
  layer.addTo(map);
  const gl = layer.getMaplibreMap();
  await firstFrame(gl).catch((error: unknown) => {
    map.removeLayer(layer);
    throw error;
  });
  map.getContainer().classList.add('has-tiles', 'has-vector-basemap');
  return gl;
}
