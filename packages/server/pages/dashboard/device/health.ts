// The selected device's delivery health (issue 19's ledger): complete, or how many records are
// missing and which, per numbering when the device's numbering started again (issue 39); what it reported dropped and what the server quarantined, with the
// quarantined records themselves (reason, time, raw JSON as text) and their CSV export.
import { silentPeriodList } from '../health/health-text.js';
import { apiJson } from '../base/api.js';
import { el, fill, showInViewer } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { Ledger, LedgerAccount, QuarantinedRecord } from '../replies.js';

const SHOWN_RANGES = 8;
const SHOWN_QUARANTINE = 20;

const rangeText = ([first, last]: [number, number]): string =>
  first === last ? '#' + first : '#' + first + '–#' + last;

function rangesText(missingRanges: [number, number][]): string {
  const more =
    missingRanges.length > SHOWN_RANGES ? ' and ' + (missingRanges.length - SHOWN_RANGES) + ' more ranges' : '';
  return missingRanges.slice(0, SHOWN_RANGES).map(rangeText).join(', ') + more;
}

/** One numbering's account (a ledger, or one of its epochs). */
function accountText(account: LedgerAccount): string {
  if (account.missing === 0) return 'all ' + account.highestSequence + ' records accounted for';
  return account.missing + ' missing of ' + account.highestSequence + ': ' + rangesText(account.missingRanges);
}

function verdict(ledger: Ledger): HTMLElement {
  if (!ledger.highestSequence)
    return el('p', { className: 'health unknown' }, 'No sequence numbers from this device yet: nothing to check.');
  const className = 'health ' + (ledger.missing === 0 ? 'complete' : 'missing');
  if (!ledger.restarted) {
    const text = accountText(ledger);
    return el('p', { className }, ledger.missing === 0 ? 'Complete: ' + text + '.' : text);
  }
  // The numbering started again at #1 under the same device id (issue 39): one account each.
  const total =
    ledger.missing === 0
      ? 'Complete: all ' + ledger.highestSequence + ' records accounted for'
      : ledger.missing + ' missing of ' + ledger.highestSequence;
  return el(
    'div',
    {},
    el(
      'p',
      { className },
      total +
        ' in ' +
        ledger.epochCount +
        ' numberings: the device started numbering again at #1 (a new queue database under the same id), last ' +
        (ledger.restartedAt === null ? 'at an unknown time' : fmt.time(ledger.restartedAt)) +
        '.',
    ),
    el(
      'ul',
      { className: 'numberings' },
      ...ledger.epochs.map((epoch) =>
        el(
          'li',
          {},
          'Since ' +
            (epoch.firstReceivedAt === null ? 'an unknown time' : fmt.time(epoch.firstReceivedAt)) +
            ': ' +
            accountText(epoch),
        ),
      ),
    ),
  );
}

function quarantineList(deviceId: string, records: QuarantinedRecord[]): HTMLDivElement | null {
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
export function healthSection(deviceId: string, _rangeQuery: unknown, report: (error: unknown) => void): HTMLElement {
  const section = el(
    'section',
    { id: 'health' },
    el('h3', {}, 'Delivery health'),
    el('p', { className: 'hint' }, 'loading…'),
  );
  const path = (what: string): string => '/api/devices/' + encodeURIComponent(deviceId) + '/' + what;
  Promise.all([
    apiJson(path('ledger')) as Promise<Ledger>,
    apiJson(path('quarantine?limit=' + SHOWN_QUARANTINE)) as Promise<{ records: QuarantinedRecord[] }>,
  ])
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
