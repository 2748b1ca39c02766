/* global URLSearchParams */
// The selected device's events in the range as a timeline, newest first: motion changes and
// geofence crossings the device recorded, and the server's own fleet events (its geofences,
// trips, silence: GET /api/devices/:id/fleet-events). A click shows where, when there is a place.
// Identifiers and extras come from devices and admins: every one is rendered as text.
import { apiJson } from './api.js';
import { el, fill } from './dom.js';
import * as fmt from './format.js';

const SHOWN = 100;

function recordLabel(record) {
  if (record.event === 'geofence') {
    const geofence = record.record && typeof record.record === 'object' ? record.record.geofence : null;
    return 'geofence ' + fmt.text(geofence && geofence.action) + ' ' + fmt.text(geofence && geofence.identifier);
  }
  return record.isMoving ? 'started moving' : 'stopped';
}

const object = (value) => (value && typeof value === 'object' ? value : {});

/** A fleet event's words: "server geofence enter depot", "trip end (12 min)", "went silent". */
function fleetLabel(event) {
  const data = object(event.data);
  const late = event.late ? ' (late)' : '';
  switch (event.type) {
    case 'geofence.enter':
    case 'geofence.exit':
    case 'geofence.dwell':
      return (
        'server geofence ' +
        event.type.slice('geofence.'.length) +
        ' ' +
        fmt.text(object(data.geofence).identifier) +
        late
      );
    case 'trip.start':
      return 'trip start' + late;
    case 'trip.end':
      return 'trip end (' + fmt.duration(data.durationMs) + ')' + late;
    case 'device.silent':
      return 'went silent';
    case 'device.active':
      return 'reporting again';
    default:
      return fmt.text(event.type);
  }
}

/** Where a fleet event happened, as focusRecord takes it; null when it has no place. */
function fleetPlace(event, at) {
  const data = object(event.data);
  const place = object(data.location ?? (event.type === 'trip.end' ? data.end : data.start));
  return typeof place.latitude === 'number' && typeof place.longitude === 'number'
    ? { latitude: place.latitude, longitude: place.longitude, recordedAt: at }
    : null;
}

/** Both kinds as timeline items: { at, kind, label, place }. */
function itemsOf(records, history) {
  const items = records.map((record) => ({
    at: record.recordedAt,
    kind: record.event === 'geofence' ? 'geofence' : 'motion',
    label: recordLabel(record),
    place: record,
  }));
  for (const event of history.events) {
    const at = Date.parse(event.timestamp);
    items.push({ at, kind: 'fleet', type: event.type, label: fleetLabel(event), place: fleetPlace(event, at) });
  }
  // Newest first; of equal times the later one in the device's order first (the sort is stable).
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.at - a.item.at || b.index - a.index)
    .map(({ item }) => item)
    .slice(0, SHOWN);
}

function itemElement(item, onOpen) {
  const when = fmt.time(item.at);
  const stamp = item.place ? el('button', { type: 'button' }, when) : el('span', { className: 'when' }, when);
  if (item.place) stamp.addEventListener('click', () => onOpen(item.place));
  const attributes = { className: item.kind };
  if (item.type) attributes.dataset = { type: item.type };
  return el('li', attributes, stamp, ' ', item.label);
}

/** A details section (deviceId, rangeQuery, report); onOpen(record) shows a record or place. */
export function timelineSection(onOpen) {
  return (deviceId, rangeQuery, report) => {
    const section = el(
      'section',
      { id: 'timeline' },
      el('h3', {}, 'Events'),
      el('p', { className: 'hint' }, 'loading…'),
    );
    const query = new URLSearchParams(rangeQuery);
    const id = encodeURIComponent(deviceId);
    const history = new URLSearchParams(rangeQuery);
    history.set('limit', String(SHOWN));
    Promise.all([
      apiJson('/api/dashboard/devices/' + id + '/events?' + query),
      apiJson('/api/devices/' + id + '/fleet-events?' + history),
    ])
      .then(([records, fleet]) => {
        const items = itemsOf(records, fleet);
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
