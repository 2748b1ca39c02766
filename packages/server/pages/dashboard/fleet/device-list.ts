// The device list: searchable by name, id or model, filterable by status and by when a device was
// last seen, and virtualised: only the rows in view (plus a few) exist in the page, so 10,000
// devices scroll and filter as fast as ten. Rows have one fixed height; the list's height stands
// for all of them.
import { $ } from '../base/dom.js';
import type { DeviceInfo } from '../device-info.js';

/** The list's filters: a lower-cased query, a status and a last-seen window ('' for any). */
export type Filters = { query: string; status: string; seen: string };

export const ROW_HEIGHT = 64;
const OVERSCAN = 8;
const SEEN_MS: Record<string, number> = { hour: 3600_000, day: 86_400_000, week: 7 * 86_400_000 };

const nameOf = (info: DeviceInfo): string => info.name || info.id;
const seenAt = (info: DeviceInfo): number => (info.lastSeen ? Date.parse(info.lastSeen) : NaN);

/** Whether a device passes the filters: a pure decision, { query, status, seen } against now. */
export function passes(info: DeviceInfo, filters: Filters, now: number): boolean {
  if (filters.status && info.status !== filters.status) return false;
  if (filters.seen) {
    const at = seenAt(info);
    if (filters.seen === 'silent') {
      if (at >= now - (SEEN_MS.week as number)) return false;
    } else if (!(at >= now - (SEEN_MS[filters.seen] ?? NaN))) return false;
  }
  if (!filters.query) return true;
  const query = filters.query;
  return (
    info.id.toLowerCase().includes(query) ||
    (info.name ? info.name.toLowerCase().includes(query) : false) ||
    (info.model ? String(info.model).toLowerCase().includes(query) : false)
  );
}

export class DeviceList<D extends { info: DeviceInfo }> {
  private readonly scroller: HTMLElement;
  private readonly list: HTMLElement;
  private order: string[];
  private shown: string[];
  private rows: Map<string, HTMLLIElement>;
  private readonly stale: Set<string>;
  private sorted: boolean;
  private frame: number;
  private refilterNeeded: boolean;

  /** devices: the page's Map id -> { info }; renderRow(device, li) fills a row; onSelect(id). */
  constructor(
    private readonly devices: Map<string, D>,
    private readonly renderRow: (device: D, li: HTMLLIElement) => void,
    private readonly onSelect: (id: string) => void,
  ) {
    this.scroller = $('device-scroll');
    this.list = $('devices');
    this.order = []; // ids by name
    this.shown = []; // ids passing the filters, in order
    this.rows = new Map(); // id -> li, the rows in the page
    this.stale = new Set();
    this.sorted = true;
    this.frame = 0;
    this.refilterNeeded = true;
    this.scroller.addEventListener('scroll', () => this.schedule(false), { passive: true });
    for (const id of ['device-search', 'device-status', 'device-seen']) {
      $(id).addEventListener('input', () => this.schedule(true));
    }
    window.addEventListener('resize', () => this.schedule(false));
  }

  add(id: string): void {
    this.order.push(id);
    this.sorted = false;
    this.schedule(true);
  }

  /** A device's info changed: its row is redrawn, and the filters run again. */
  changed(id: string): void {
    this.stale.add(id);
    this.schedule(true);
  }

  /** Redraws every row in view (the selection moved). */
  redraw(): void {
    for (const id of this.rows.keys()) this.stale.add(id);
    this.schedule(false);
  }

  schedule(refilter: boolean): void {
    this.refilterNeeded = this.refilterNeeded || refilter;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.flush();
    });
  }

  /** Runs what is scheduled now (tests and the first render do not wait for a frame). */
  flush(): void {
    const started = performance.now();
    if (this.refilterNeeded) this.refilter();
    this.render();
    // What a filter or a scroll cost, for anyone measuring the list (the 10,000-device test does).
    this.list.dataset.flushMs = (performance.now() - started).toFixed(1);
  }

  filters(): Filters {
    return {
      query: $<HTMLInputElement>('device-search').value.trim().toLowerCase(),
      status: $<HTMLSelectElement>('device-status').value,
      seen: $<HTMLSelectElement>('device-seen').value,
    };
  }

  private device(id: string): D {
    return this.devices.get(id) as D;
  }

  refilter(): void {
    this.refilterNeeded = false;
    if (!this.sorted) {
      const key = (id: string): string => nameOf(this.device(id).info).toLowerCase();
      const keys = new Map(this.order.map((id) => [id, key(id)]));
      const keyOf = (id: string): string => keys.get(id) ?? '';
      this.order.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
      this.sorted = true;
    }
    const filters = this.filters();
    const now = Date.now();
    this.shown = this.order.filter((id) => passes(this.device(id).info, filters, now));
    this.list.style.height = this.shown.length * ROW_HEIGHT + 'px';
    const total = this.order.length;
    $('device-count').textContent =
      this.shown.length === total
        ? total + (total === 1 ? ' device' : ' devices')
        : this.shown.length + ' of ' + total + ' devices';
  }

  render(): void {
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.shown.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const rows = new Map<string, HTMLLIElement>();
    for (let index = first; index < last; index++) {
      const id = this.shown[index] as string;
      let li = this.rows.get(id);
      if (!li) {
        li = document.createElement('li');
        li.dataset.device = id;
        li.tabIndex = 0;
        li.addEventListener('click', () => this.onSelect(id));
        li.addEventListener('keydown', (event) => {
          if (event.key === 'Enter') this.onSelect(id);
        });
        this.renderRow(this.device(id), li);
      } else if (this.stale.has(id)) this.renderRow(this.device(id), li);
      li.style.top = index * ROW_HEIGHT + 'px';
      rows.set(id, li);
    }
    this.stale.clear();
    this.rows = rows;
    this.list.replaceChildren(...rows.values());
  }

  /** Scrolls a device's row into view (selected on the map). */
  reveal(id: string): void {
    const index = this.shown.indexOf(id);
    if (index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < this.scroller.scrollTop || top + ROW_HEIGHT > this.scroller.scrollTop + this.scroller.clientHeight) {
      this.scroller.scrollTop = Math.max(0, top - ROW_HEIGHT);
    }
    this.render();
  }
}
