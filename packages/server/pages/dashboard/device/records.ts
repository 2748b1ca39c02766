// The records table of the selected device: newest first, paged on the server (keyset cursors),
// and a record's full JSON when its row is clicked.
import { routeJson } from '../base/api.js';
import { $, el, fill, showInViewer } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { Range } from '../base/range.js';
import type { Reply } from '../api-types.js';

/** GET /api/dashboard/devices/{id}/records: one page of a device's records, newest first. */
type StoredRecord = Reply<'/api/dashboard/devices/{id}/records'>['records'][number];

const PAGE_SIZE = 50;

export class RecordsTable {
  private readonly onOpen: (record: StoredRecord) => void;
  deviceId: string | null;
  private range: Range | null;
  private cursors: (string | null)[];
  private next: string | null;
  private generation: number;

  constructor(onOpen: (record: StoredRecord) => void) {
    this.onOpen = onOpen;
    this.deviceId = null;
    this.range = null;
    this.cursors = [null]; // cursors[i] starts page i; the last entry is the page shown
    this.next = null;
    this.generation = 0;
    $('records-older').addEventListener('click', () => void this.older());
    $('records-newer').addEventListener('click', () => void this.newer());
  }

  show(deviceId: string, range: Range): Promise<void> {
    this.deviceId = deviceId;
    this.range = range;
    this.cursors = [null];
    $('record-json').hidden = true;
    return this.load();
  }

  /** Reloads the first page when it is the one shown (a live position arrived). */
  refreshIfFirst(): Promise<void> {
    if (this.deviceId && this.cursors.length === 1) return this.load();
    return Promise.resolve();
  }

  older(): Promise<void> | undefined {
    if (!this.next) return;
    this.cursors.push(this.next);
    return this.load();
  }

  newer(): Promise<void> | undefined {
    if (this.cursors.length <= 1) return;
    this.cursors.pop();
    return this.load();
  }

  async load(): Promise<void> {
    const generation = ++this.generation;
    const { deviceId, range } = this;
    if (deviceId === null || range === null) return;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (range.from !== null) params.set('from', String(range.from));
    if (range.to !== null) params.set('to', String(range.to));
    const before = this.cursors[this.cursors.length - 1];
    if (before) params.set('before', before);
    const page = await routeJson('/api/dashboard/devices/{id}/records', {
      method: 'get',
      params: { id: deviceId },
      query: params.toString(),
    });
    if (generation !== this.generation) return; // a newer request superseded this one
    this.next = page.next;
    const first = (this.cursors.length - 1) * PAGE_SIZE;
    $('records-title').textContent = 'Records of ' + this.deviceId;
    $('records-info').textContent =
      page.total === 0
        ? 'none in this time range'
        : first + 1 + '–' + (first + page.records.length) + ' of ' + page.total + ' (newest first)';
    $<HTMLButtonElement>('records-older').disabled = !page.next;
    $<HTMLButtonElement>('records-newer').disabled = this.cursors.length <= 1;
    const now = Date.now();
    const body = $<HTMLTableElement>('records').tBodies[0];
    if (body) fill(body, ...page.records.map((record) => this.row(record, now)));
  }

  row(record: StoredRecord, now: number): HTMLTableRowElement {
    const row = el(
      'tr',
      { dataset: { uuid: record.uuid }, tabIndex: 0, onclick: () => this.open(record, row) },
      ...(
        [
          ['Recorded at', fmt.time(record.recordedAt), 'value'],
          ['Age', fmt.age(record.recordedAt, now), 'value'],
          ['Coordinates', fmt.coordinates(record.latitude, record.longitude)],
          ['Accuracy', fmt.length(record.accuracy), 'num'],
          ['Speed', fmt.speed(record.speed), 'num'],
          ['Odometer', fmt.distance(record.odometer), 'num'],
          ['Event', fmt.text(record.event)],
          ['Moving', fmt.yesNo(record.isMoving)],
          ['Activity', fmt.text(record.activity)],
          ['Battery', fmt.percent(record.battery), 'num'],
          // The heading as data: a phone shows each row as a card, labelled by CSS (attr()), as text.
        ] as [string, string, string?][]
      ).map(([label, value, className]) => el('td', { className, dataset: { label } }, value)),
    );
    row.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.open(record, row);
    });
    return row;
  }

  open(record: StoredRecord, row: HTMLTableRowElement): void {
    for (const other of $<HTMLTableElement>('records').tBodies[0]?.rows ?? [])
      other.classList.toggle('selected', other === row);
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
