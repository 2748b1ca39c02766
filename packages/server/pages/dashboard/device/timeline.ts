// The selected device's events in the range as a timeline, newest first: motion changes and
// geofence crossings the device recorded, and the server's own fleet events (its geofences,
// trips, silence: GET /api/devices/:id/fleet-events), one entry per event (timeline-items.js).
// A click shows where, when there is a place.
// Identifiers and extras come from devices and admins: every one is rendered as text.
import { routeJson } from '../base/api.js';
import { el, fill } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import { SHOWN, timelineItems, type Place, type TimelineItem } from './timeline-items.js';

let lateAfterMs = 300_000;
/** The server's lateAfterSeconds (dashboard-config.json), for what "(late)" means here. */
export function setLateAfter(ms: number): void {
  if (Number.isFinite(ms) && ms >= 0) lateAfterMs = ms;
}

function itemElement(item: TimelineItem, onOpen: (place: Place) => void): HTMLLIElement {
  const when = fmt.time(item.at);
  const stamp = item.place ? el('button', { type: 'button' }, when) : el('span', { className: 'when' }, when);
  const place = item.place;
  if (place) stamp.addEventListener('click', () => onOpen(place));
  return el(
    'li',
    { className: item.kind, dataset: item.type ? { type: item.type } : undefined },
    stamp,
    ' ',
    item.label,
  );
}

/** A details section (deviceId, rangeQuery, report); onOpen(record) shows a record or place. */
export function timelineSection(
  onOpen: (place: Place) => void,
): (deviceId: string, rangeQuery: string, report: (error: unknown) => void) => HTMLElement {
  return (deviceId, rangeQuery, report) => {
    const section = el(
      'section',
      { id: 'timeline' },
      el('h3', {}, 'Events'),
      el('p', { className: 'hint' }, 'loading…'),
    );
    const query = new URLSearchParams(rangeQuery);
    const history = new URLSearchParams(rangeQuery);
    history.set('limit', String(SHOWN));
    Promise.all([
      routeJson('/api/dashboard/devices/{id}/events', {
        method: 'get',
        params: { id: deviceId },
        query: query.toString(),
      }),
      routeJson('/api/devices/{id}/fleet-events', {
        method: 'get',
        params: { id: deviceId },
        query: history.toString(),
      }),
    ])
      .then(([records, fleet]) => {
        const items = timelineItems(records, fleet, lateAfterMs);
        fill(
          section,
          el('h3', {}, 'Events'),
          items.length === 0
            ? el('p', { className: 'hint' }, 'No motion changes, geofence or fleet events in this time range.')
            : el('ol', { className: 'timeline' }, ...items.map((item) => itemElement(item, onOpen))),
        );
      })
      .catch(report);
    return section;
  };
}
