/* global URLSearchParams */
// The selected device's delivery health (issue 19's ledger): complete, or how many records are
// missing and which; what it reported dropped and what the server quarantined, with the
// quarantined records themselves (reason, time, raw JSON as text) and their CSV export.
import { silentPeriodList } from './health-text.js';
import { apiJson } from './api.js';
import { el, fill, showInViewer } from './dom.js';
import * as fmt from './format.js';

const SHOWN_RANGES = 8;
const SHOWN_QUARANTINE = 20;

const rangeText = ([first, last]) => (first === last ? '#' + first : '#' + first + '–#' + last);

function verdict(ledger) {
  if (!ledger.highestSequence)
    return el('p', { className: 'health unknown' }, 'No sequence numbers from this device yet: nothing to check.');
  if (ledger.missing === 0)
    return el(
      'p',
      { className: 'health complete' },
      'Complete: all ' + ledger.highestSequence + ' records accounted for.',
    );
  const ranges = ledger.missingRanges.slice(0, SHOWN_RANGES).map(rangeText).join(', ');
  const more =
    ledger.missingRanges.length > SHOWN_RANGES
      ? ' and ' + (ledger.missingRanges.length - SHOWN_RANGES) + ' more ranges'
      : '';
  return el(
    'p',
    { className: 'health missing' },
    ledger.missing + ' missing of ' + ledger.highestSequence + ': ' + ranges + more,
  );
}

function quarantineList(deviceId, records) {
  if (records.length === 0) return null;
  const csv =
    '/api/devices/' +
    encodeURIComponent(deviceId) +
    '/quarantine?' +
    new URLSearchParams({ format: 'csv', limit: '10000' });
  return el(
    'div',
    {},
    el('h4', {}, 'Quarantined records ', el('a', { href: csv, download: deviceId + '-quarantine.csv' }, 'CSV')),
    el(
      'ul',
      { className: 'quarantine' },
      ...records.slice(0, SHOWN_QUARANTINE).map((record) => {
        const button = el(
          'button',
          { type: 'button', dataset: { quarantine: String(record.id) } },
          record.code + ' · ' + fmt.time(Date.parse(record.receivedAt)),
        );
        button.addEventListener('click', () => {
          showInViewer(record.code + ': ' + record.message + '\n\n' + record.raw);
        });
        return el('li', {}, button, el('div', { className: 'hint' }, record.message));
      }),
    ),
  );
}

/** A details section (deviceId, rangeQuery, report): the ledger and the quarantine, loading themselves. */
export function healthSection(deviceId, _rangeQuery, report) {
  const section = el(
    'section',
    { id: 'health' },
    el('h3', {}, 'Delivery health'),
    el('p', { className: 'hint' }, 'loading…'),
  );
  const path = (what) => '/api/devices/' + encodeURIComponent(deviceId) + '/' + what;
  Promise.all([apiJson(path('ledger')), apiJson(path('quarantine?limit=' + SHOWN_QUARANTINE))])
    .then(([ledger, quarantine]) => {
      const dropped = Object.entries(ledger.dropped)
        .filter(([, n]) => n > 0)
        .map(([reason, n]) => n + ' ' + reason)
        .join(', ');
      fill(
        section,
        el('h3', {}, 'Delivery health'),
        verdict(ledger),
        el(
          'p',
          { className: 'hint' },
          ledger.received +
            ' received · ' +
            ledger.duplicates +
            ' duplicates · ' +
            ledger.quarantined +
            ' quarantined' +
            (dropped ? ' · dropped on the device: ' + dropped : ''),
        ),
        quarantineList(deviceId, quarantine.records),
        silentPeriodList(ledger.silentPeriods),
      );
    })
    .catch(report);
  return section;
}
