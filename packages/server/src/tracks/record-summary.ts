/** The columns of the dashboard's records table, read from a stored record of any shape. */
export interface RecordSummary {
  accuracy: number | null;
  speed: number | null;
  odometer: number | null;
  event: string | null;
  isMoving: boolean | null;
  activity: string | null;
  battery: number | null;
}

type Json = Record<string, unknown>;

const objectOf = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;

/** A known value, or null: -1 is the default schema's "unknown". */
function measured(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value !== -1 ? value : null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Reads the default schema (coords.accuracy, activity.type, battery.level) and the flat fields of
 * templates (accuracy, speed, battery) alike; whatever is missing or of another type is null.
 */
export function summarizeRecord(record: unknown): RecordSummary {
  const r = objectOf(record) ?? {};
  const coords = objectOf(r.coords) ?? r;
  const activity = objectOf(r.activity);
  const battery = objectOf(r.battery);
  const moving = r.is_moving ?? r.isMoving;
  return {
    accuracy: measured(coords.accuracy),
    speed: measured(coords.speed),
    odometer: measured(r.odometer),
    event: text(r.event),
    isMoving: typeof moving === 'boolean' ? moving : null,
    activity: activity ? text(activity.type) : text(r.activity),
    battery: battery ? measured(battery.level) : measured(r.battery),
  };
}
