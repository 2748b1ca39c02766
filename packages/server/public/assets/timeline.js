/* global URLSearchParams */
// The selected device's events in the range as a timeline, newest first: motion changes and
// geofence crossings the device recorded. A click shows the record and its place on the map.
import { apiJson } from './api.js';
import { el, fill } from './dom.js';
import * as fmt from './format.js';

const SHOWN = 100;

function label(record) {
  if (record.event === 'geofence') {
    const geofence = record.record && typeof record.record === 'object' ? record.record.geofence : null;
    return 'geofence ' + fmt.text(geofence && geofence.action) + ' ' + fmt.text(geofence && geofence.identifier);
  }
  return record.isMoving ? 'started moving' : 'stopped';
}

/** A details section (deviceId, rangeQuery, report); onOpen(record) shows a record. */
export function timelineSection(onOpen) {
  return (deviceId, rangeQuery, report) => {
    const section = el(
      'section',
      { id: 'timeline' },
      el('h3', {}, 'Events'),
      el('p', { className: 'hint' }, 'loading…'),
    );
    const query = new URLSearchParams(rangeQuery);
    apiJson('/api/dashboard/devices/' + encodeURIComponent(deviceId) + '/events?' + query)
      .then((records) => {
        const newest = [...records].sort((a, b) => b.recordedAt - a.recordedAt).slice(0, SHOWN);
        fill(
          section,
          el('h3', {}, 'Events'),
          newest.length === 0
            ? el('p', { className: 'hint' }, 'No motion changes or geofence events in this time range.')
            : el(
                'ol',
                { className: 'timeline' },
                ...newest.map((record) => {
                  const button = el(
                    'button',
                    { type: 'button', dataset: { uuid: record.uuid } },
                    fmt.time(record.recordedAt),
                  );
                  button.addEventListener('click', () => onOpen(record));
                  return el(
                    'li',
                    { className: record.event === 'geofence' ? 'geofence' : 'motion' },
                    button,
                    ' ',
                    label(record),
                  );
                }),
              ),
        );
      })
      .catch(report);
    return section;
  };
}
