// While a device's track pyramid is still being built (an upgrade, a large import), its tile route
// answers 503 TRACK_TILES_BUILDING with a Retry-After. The map must not stay empty meanwhile: that
// device and range are drawn from its records (/track, simplified for the zoom) and the status
// says so; after the Retry-After one tile is asked for again, and once it answers the tiles come
// back. A device's state is its tile query: another range tries the tiles afresh.
import { api } from '../base/api.js';
import { el, fill } from '../base/dom.js';
import * as fmt from '../settings/format.js';

/** When the answer names no usable Retry-After; and the longest wait honoured (a bad header must not park the tiles for hours). */
const DEFAULT_RETRY_MS = 30_000;
const MAX_RETRY_MS = 600_000;

type Building = { query: string; label: string; retryAt: number; timer: ReturnType<typeof setTimeout> | null };
const building = new Map<string, Building>(); // by device id

/** The wait a 503 asks for (Retry-After in seconds), bounded. */
export function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_MS) : DEFAULT_RETRY_MS;
}

/** Whether this device's tiles for this query are known to be building (draw its records instead). */
export const tilesBuilding = (id: string, query: string): boolean => building.get(id)?.query === query;

/** Forgets a device's building state (its range changed, or it left the map). */
export function forgetBuilding(id: string): void {
  const entry = building.get(id);
  if (!entry) return;
  if (entry.timer !== null) clearTimeout(entry.timer);
  building.delete(id);
  showNote();
}

/**
 * A tile answered 503: from now on this device and query draw from the records (`redraw` draws the
 * device again, which now takes that path), and `probe` (a tile's path) is asked again after `waitMs`.
 */
export function startBuilding({
  id,
  label,
  query,
  probe,
  waitMs,
  redraw,
}: {
  id: string;
  label: string;
  query: string;
  probe: string;
  waitMs: number;
  redraw: () => void;
}): void {
  if (tilesBuilding(id, query)) return;
  forgetBuilding(id);
  const entry: Building = { query, label, retryAt: 0, timer: null };
  building.set(id, entry);
  schedule(entry, id, probe, waitMs, redraw);
  redraw();
}

function schedule(entry: Building, id: string, probe: string, waitMs: number, redraw: () => void): void {
  entry.retryAt = Date.now() + waitMs;
  showNote();
  entry.timer = setTimeout(async () => {
    const response = await api(probe).catch(() => null);
    if (building.get(id) !== entry) return; // forgotten meanwhile
    if (response && response.ok) {
      building.delete(id);
      showNote();
      redraw();
      return;
    }
    const wait = response && response.status === 503 ? retryAfterMs(response) : DEFAULT_RETRY_MS;
    schedule(entry, id, probe, wait, redraw);
  }, waitMs);
}

/** The status line under the dashboard's status: which devices are drawn from records, and until when. */
function showNote(): void {
  const note = document.getElementById('tiles-status');
  if (!note) return;
  note.hidden = building.size === 0;
  fill(
    note,
    ...[...building.values()].map((entry) =>
      el(
        'span',
        { className: 'tiles-building' },
        entry.label +
          ': track tiles are being built; drawn from its records meanwhile (tiles tried again at ' +
          fmt.clock(entry.retryAt) +
          ') ',
      ),
    ),
  );
}
