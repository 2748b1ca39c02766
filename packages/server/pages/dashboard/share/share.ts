// A share link's page: one device's track in one time window, read-only, no login. The token is
// the link's last path segment; the page asks only for that share's track and shows nothing else.
// Times and measures read as on the dashboard (format.js): the browser's time zone and language, or
// UTC, metric or imperial, the settings this browser keeps (settings.js, shared with the dashboard
// on this origin), with the page's own small control for a visitor who never saw the dashboard.
import { addBasemap } from '../map/basemap.js';
import { $, el } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import { showSettings } from '../settings/settings.js';
import type { Reply } from '../api-types.js';
import { metresBetween } from '../map/vehicle-state.js';

/** GET /s/{token}/track: the shared device's track in the link's window (times in ms). */
type SharedTrack = Reply<'/s/{token}/track'>;
type TripPoints = SharedTrack['trips'][number];

const COLOUR = '#1f6feb';
const token = window.location.pathname.split('/')[2] || '';

function gone(message: string): void {
  $('share-map').hidden = true;
  $('share-gone').hidden = false;
  $('share-gone').textContent = message;
  $('share-title').textContent = 'Shared track unavailable';
}

async function show(): Promise<void> {
  const response = await fetch('/s/' + encodeURIComponent(token) + '/track', { credentials: 'omit' });
  if (response.status === 410) return gone('This link has expired or was withdrawn.');
  if (!response.ok) return gone('This link does not exist.');
  const share = (await response.json()) as SharedTrack;
  $('share-title').textContent = share.name ? share.name : 'Shared track';
  showSettings();
  const empty = share.trips.length === 0 && !share.newest;
  const writeWindow = (): void => {
    $('share-window').textContent = windowText(share, empty);
  };
  writeWindow();
  // A settings change rewrites the window's times; tooltips are built when shown.
  document.addEventListener('waypost:settings', writeWindow);
  const config = await (await fetch('/dashboard-config.json')).json();
  const map = L.map('share-map', { worldCopyJump: true }).setView([20, 0], 2);
  // Not awaited: the track draws while the street map loads.
  addBasemap(map, config, { operator: false }).catch(() => undefined);
  const lines = L.featureGroup().addTo(map);
  for (const trip of share.trips) {
    const line = L.polyline(
      trip.map((p): L.LatLngTuple => [p[0], p[1]]),
      { color: COLOUR, weight: 4, className: 'share-trip' },
    ).addTo(lines);
    line.bindTooltip(() => tripTip(trip));
  }
  const newest = share.newest;
  if (newest) {
    L.circleMarker([newest.lat, newest.lon], {
      radius: 8,
      color: '#fff',
      weight: 2,
      fillColor: COLOUR,
      fillOpacity: 1,
      className: 'share-marker',
    })
      .bindTooltip(() => el('div', {}, fmt.time(newest.t)))
      .addTo(lines);
  }
  if (lines.getLayers().length > 0) map.fitBounds(lines.getBounds().pad(0.15), { maxZoom: 16 });
}

/** The shared window and the link's expiry, in the reader's settings. */
function windowText(share: SharedTrack, empty: boolean): string {
  return (
    (share.from === null ? 'from the start' : 'from ' + fmt.time(share.from)) +
    ' ' +
    (share.to === null ? 'until now' : 'to ' + fmt.time(share.to)) +
    ' · link valid until ' +
    fmt.time(share.expiresAt) +
    (empty ? ' · no positions in this window' : '')
  );
}

/**
 * A trip's tooltip: when, how far and how fast on average, measured along the line drawn (the
 * track as the link serves it, simplified: a little short of the odometer on a winding road).
 */
function tripTip(trip: TripPoints): HTMLDivElement {
  const first = trip[0] ?? [0, 0, NaN];
  const final = trip[trip.length - 1] ?? first;
  let metres = 0;
  for (let i = 1; i < trip.length; i++) metres += metresBetween(trip[i - 1] ?? first, trip[i] ?? first);
  const seconds = (final[2] - first[2]) / 1000;
  return el(
    'div',
    {},
    el('div', {}, fmt.time(first[2]) + ' → ' + fmt.time(final[2])),
    el(
      'div',
      { className: 'share-trip-measures' },
      fmt.distance(metres) + ' · ' + (seconds > 0 ? fmt.speed(metres / seconds) + ' average' : fmt.speed(NaN)),
    ),
  );
}

show().catch((error: unknown) => gone('The track could not be loaded: ' + (error as Error).message));
