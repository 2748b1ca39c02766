import type { AnchorDeviceRow, AnchorLocationRow, ScopedStats } from '../../store/anchor-reads.js';

type Json = Record<string, unknown>;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());

function parsed(text: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
  } catch {
    return {};
  }
}

const objectAt = (record: Json, key: string): Json => {
  const value = record[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
};

/** A device as the anchor's GET /devices lists it (its dashboard reads these members). */
export function anchorDevice(row: AnchorDeviceRow): Json {
  const info = parsed(row.info);
  return {
    id: row.id,
    device_id: row.uuid ?? row.id,
    device_model: row.model,
    company_id: row.org_id === null ? null : Number(row.org_id),
    company_token: row.org_name,
    framework: info.framework ?? null,
    version: info.version ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.last_seen ?? row.created_at),
  };
}

/**
 * A record the way the anchor's GET /locations flattens it: its device's members, the record's
 * own members, its coords at the top, activity and battery as activity_type, battery_level...
 */
export function anchorLocation(row: AnchorLocationRow): Json {
  const record = parsed(row.record);
  const coords = objectAt(record, 'coords');
  const activity = objectAt(record, 'activity');
  const battery = objectAt(record, 'battery');
  const flat: Json = { ...record, ...coords };
  for (const key of ['coords', 'activity', 'battery']) delete flat[key];
  return {
    ...flat,
    ...anchorDevice(row),
    id: Number(row.location_id),
    uuid: row.location_uuid,
    device_id: row.id,
    latitude: row.latitude,
    longitude: row.longitude,
    activity_type: activity.type ?? null,
    activity_confidence: activity.confidence ?? null,
    battery_level: battery.level ?? null,
    battery_is_charging: battery.is_charging ?? null,
    recorded_at: iso(row.recorded_at),
    created_at: iso(row.received_at),
  };
}

export function anchorStats(stats: ScopedStats) {
  return {
    minDate: iso(stats.minDate),
    maxDate: iso(stats.maxDate),
    minRecordedDate: iso(stats.minRecordedDate),
    maxRecordedDate: iso(stats.maxRecordedDate),
    total: stats.total,
  };
}
