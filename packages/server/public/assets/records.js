/* global URLSearchParams */
// The records table of the selected device: newest first, paged on the server (keyset cursors),
// and a record's full JSON when its row is clicked.
import { apiJson } from './api.js';
import { $, el, fill, showInViewer } from './dom.js';
import * as fmt from './format.js';

const PAGE_SIZE = 50;

export class RecordsTable {
  constructor(onOpen) {
    this.onOpen = onOpen;
    this.deviceId = null;
    this.range = null;
    this.cursors = [null]; // cursors[i] starts page i; the last entry is the page shown
    this.next = null;
    this.generation = 0;
    $('records-older').addEventListener('click', () => this.older());
    $('records-newer').addEventListener('click', () => this.newer());
  }

  show(deviceId, range) {
    this.deviceId = deviceId;
    this.range = range;
    this.cursors = [null];
    $('record-json').hidden = true;
    return this.load();
  }

  /** Reloads the first page when it is the one shown (a live position arrived). */
  refreshIfFirst() {
    if (this.deviceId && this.cursors.length === 1) return this.load();
    return Promise.resolve();
  }

  older() {
    if (!this.next) return;
    this.cursors.push(this.next);
    return this.load();
  }

  newer() {
    if (this.cursors.length <= 1) return;
    this.cursors.pop();
    return this.load();
  }

  async load() {
    const generation = ++this.generation;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (this.range.from !== null) params.set('from', String(this.range.from));
    if (this.range.to !== null) params.set('to', String(this.range.to));
    const before = this.cursors[this.cursors.length - 1];
    if (before) params.set('before', before);
    const page = await apiJson('/api/dashboard/devices/' + encodeURIComponent(this.deviceId) + '/records?' + params);
    if (generation !== this.generation) return; // a newer request superseded this one
    this.next = page.next;
    const first = (this.cursors.length - 1) * PAGE_SIZE;
    $('records-title').textContent = 'Records of ' + this.deviceId;
    $('records-info').textContent =
      page.total === 0
        ? 'none in this time range'
        : first + 1 + '–' + (first + page.records.length) + ' of ' + page.total + ' (newest first)';
    $('records-older').disabled = !page.next;
    $('records-newer').disabled = this.cursors.length <= 1;
    const now = Date.now();
    fill($('records').tBodies[0], ...page.records.map((record) => this.row(record, now)));
  }

  row(record, now) {
    const row = el(
      'tr',
      { dataset: { uuid: record.uuid }, tabIndex: 0, onclick: () => this.open(record, row) },
      ...[
        ['Recorded at', fmt.time(record.recordedAt)],
        ['Age', fmt.age(record.recordedAt, now)],
        ['Coordinates', fmt.coordinates(record.latitude, record.longitude)],
        ['Accuracy', fmt.length(record.accuracy), 'num'],
        ['Speed', fmt.speed(record.speed), 'num'],
        ['Odometer', fmt.distance(record.odometer), 'num'],
        ['Event', fmt.text(record.event)],
        ['Moving', fmt.yesNo(record.isMoving)],
        ['Activity', fmt.text(record.activity)],
        ['Battery', fmt.percent(record.battery), 'num'],
        // The heading as data: a phone shows each row as a card, labelled by CSS (attr()), as text.
      ].map(([label, value, className]) => el('td', { className, dataset: { label } }, value)),
    );
    row.addEventListener('keydown', (event) => event.key === 'Enter' && this.open(record, row));
    return row;
  }

  open(record, row) {
    for (const other of $('records').tBodies[0].rows) other.classList.toggle('selected', other === row);
    showInViewer(
      JSON.stringify(
        {
          uuid: record.uuid,
          // The viewer shows the record as stored: its times in ISO 8601 UTC, whatever the setting.
          recorded_at: new Date(record.recordedAt).toISOString(),
          received_at: new Date(record.receivedAt).toISOString(),
          record: record.record,
        },
        null,
        2,
      ),
    );
    this.onOpen(record);
  }
}
