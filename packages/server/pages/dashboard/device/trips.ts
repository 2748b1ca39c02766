// The selected device's trips and stops over the time range, measured by the server on every
// position (start, end, duration, distance, average and top speed; stops with their duration),
// each trip with its own exports and a button that replays it.
import { routeJson } from '../base/api.js';
import type { Reply } from '../api-types.js';
import { exportUrl } from './details.js';
import { el, fill } from '../base/dom.js';
import * as fmt from '../settings/format.js';

/** GET /api/dashboard/devices/{id}/trips: trips and stops measured by the server (times in ms). */
type TripsReply = Reply<'/api/dashboard/devices/{id}/trips'>;
type Trip = TripsReply['trips'][number];
type Stop = TripsReply['stops'][number];

const MAX_ROWS = 200;

/** Cells with their heading as data: the table lays each row out as a card (inspector.css), labelled as text. */
const cells = (labelled: [string, string][]): HTMLTableCellElement[] =>
  labelled.map(([label, value]) => el('td', { dataset: { label } }, value));

function tripRow(deviceId: string, trip: Trip, index: number): HTMLTableRowElement {
  const window = 'from=' + trip.start + '&to=' + trip.end;
  const link = (format: string): HTMLAnchorElement =>
    el(
      'a',
      { href: exportUrl(deviceId, format, window), download: deviceId + '-trip-' + (index + 1) + '.' + format },
      format.toUpperCase(),
    );
  const play = el('button', { type: 'button', className: 'play-trip' }, 'Play');
  play.addEventListener('click', () =>
    document.dispatchEvent(new CustomEvent('waypost:play', { detail: { deviceId, from: trip.start, to: trip.end } })),
  );
  return el(
    'tr',
    { dataset: { start: String(trip.start) } },
    ...cells([
      ['#', String(index + 1)],
      ['Start', fmt.time(trip.start)],
      ['End', fmt.sameDay(trip.start, trip.end) ? fmt.clock(trip.end) : fmt.time(trip.end)],
      ['Duration', fmt.duration(trip.durationMs)],
      ['Distance', fmt.distance(trip.distanceM)],
      ['Average', fmt.speed(trip.averageSpeedMps)],
      ['Top speed', fmt.speed(trip.maxSpeedMps)],
    ]),
    el('td', { className: 'actions' }, play, ' ', link('gpx'), ' ', link('geojson'), ' ', link('csv')),
  );
}

function stopRow(stop: Stop): HTMLTableRowElement {
  return el(
    'tr',
    {},
    ...cells([
      ['Stopped', fmt.time(stop.start)],
      ['Left', fmt.time(stop.end)],
      ['Duration', fmt.duration(stop.durationMs)],
      ['Where', fmt.coordinates(stop.lat, stop.lon)],
    ]),
  );
}

function table(className: string, headings: string[], rows: HTMLElement[]): HTMLDivElement {
  return el(
    'div',
    { className: 'table-scroll' },
    el(
      'table',
      { className },
      el('thead', {}, el('tr', {}, ...headings.map((h) => el('th', {}, h)))),
      el('tbody', {}, ...rows),
    ),
  );
}

/** A details section: loads itself for the device and range it was built for. */
export function tripsSection(deviceId: string, rangeQuery: string, report: (error: unknown) => void): HTMLElement {
  const section = el(
    'section',
    { id: 'trips' },
    el('h3', {}, 'Trips and stops'),
    el('p', { className: 'hint' }, 'loading…'),
  );
  routeJson('/api/dashboard/devices/{id}/trips', { method: 'get', params: { id: deviceId }, query: rangeQuery })
    .then(({ trips, stops, truncated }) => {
      const total = trips.reduce((sum, trip) => sum + trip.distanceM, 0);
      const summary =
        trips.length === 0
          ? 'No trips in this time range.'
          : trips.length +
            (trips.length === 1 ? ' trip, ' : ' trips, ') +
            fmt.distance(total) +
            (truncated ? ' (newest positions only)' : '');
      fill(
        section,
        el('h3', {}, 'Trips and stops'),
        el('p', { className: 'hint', id: 'trips-summary' }, summary),
        trips.length === 0
          ? null
          : table(
              'trips-table',
              ['#', 'Start', 'End', 'Duration', 'Distance', 'Average', 'Top speed', ''],
              trips
                .slice(-MAX_ROWS)
                .map((trip, i) => tripRow(deviceId, trip, i + Math.max(0, trips.length - MAX_ROWS))),
            ),
        stops.length === 0
          ? null
          : table('stops-table', ['Stopped', 'Left', 'Duration', 'Where'], stops.slice(-MAX_ROWS).map(stopRow)),
      );
    })
    .catch(report);
  return section;
}
