// The selected device's details in the sidebar: what it is, what the range holds, exports, and
// the sections loaded once per selection (logs; trips, delivery health and sharing as they come),
// kept across the redraws live positions cause.
import { el, fill, $ } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import { showLogList } from './logs.js';
import type { DeviceInfo } from '../device-info.js';

/** A details section: built for a device and range, it loads itself and reports its failures. */
export type SectionBuilder = (deviceId: string, rangeQuery: string, report: (error: unknown) => void) => HTMLElement;

/** What the details show of the selected device's track in the range. */
export type TrackSummary = {
  newest?: { lat: number; lon: number; t: number } | null;
  positions: number;
  truncated?: boolean;
  trips: unknown[][];
};

let sectionsFor: string | null = null;
let sections: HTMLElement[] = [];

/** Sections built once per device and range: each is a function (deviceId, rangeQuery, report) -> element, loading itself. */
const builders: SectionBuilder[] = [];
export function addDetailsSection(build: SectionBuilder): void {
  builders.push(build);
}

/** The sections are built again on the next render (the settings changed how they read). */
export function forgetSections(): void {
  sectionsFor = null;
}

export function exportUrl(deviceId: string, format: string, rangeQuery: string): string {
  return '/api/devices/' + encodeURIComponent(deviceId) + '/locations?format=' + format + '&' + rangeQuery;
}

export function renderDetails(
  device: { info: DeviceInfo; track?: TrackSummary | null } | null | undefined,
  rangeQuery: string,
  report: (error: unknown) => void,
): void {
  const details = $('details');
  $('inspector').hidden = !device;
  if (!device) {
    details.hidden = true;
    sectionsFor = null;
    return;
  }
  const { info, track } = device;
  if (sectionsFor !== info.id + '?' + rangeQuery) {
    sectionsFor = info.id + '?' + rangeQuery;
    const logs = el('section', { id: 'device-logs' });
    showLogList(info.id, logs).catch(report);
    sections = [...builders.map((build) => build(info.id, rangeQuery, report)), logs];
  }
  const exportLink = (format: string): HTMLAnchorElement =>
    el('a', { href: exportUrl(info.id, format, rangeQuery), download: info.id + '.' + format }, format.toUpperCase());
  const rows: [string, string][] = [
    ['Device', info.id],
    ['Name', fmt.text(info.name)],
    ['Model', fmt.text(info.model)],
    ['Status', fmt.text(info.status)],
    ['Records', fmt.text(info.records)],
    [
      'Last seen',
      info.lastSeen ? fmt.time(Date.parse(info.lastSeen)) + ' (' + fmt.age(Date.parse(info.lastSeen)) + ' ago)' : '–',
    ],
    [
      'Newest in range',
      track && track.newest
        ? fmt.coordinates(track.newest.lat, track.newest.lon) + ' at ' + fmt.time(track.newest.t)
        : 'none',
    ],
    ['Positions in range', track ? String(track.positions) + (track.truncated ? ' (newest shown)' : '') : '–'],
    ['Points drawn', track ? String(track.trips.reduce((n, t) => n + t.length, 0)) : '–'],
  ];
  details.hidden = false;
  fill(
    details,
    el('h2', {}, 'Selected device'),
    el('dl', {}, ...rows.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)])),
    el(
      'p',
      { className: 'exports' },
      'Export records: ',
      exportLink('geojson'),
      ' ',
      exportLink('gpx'),
      ' ',
      exportLink('csv'),
      // The files keep the formats' own units whatever the page shows: said, so no one misreads them.
      el('span', { className: 'hint', id: 'export-units' }, ' (files in metres, m/s and UTC, as the formats define)'),
    ),
    ...sections,
  );
}
