import type { GroupFields } from './field-spec.js';

/** The persistence group: what a record holds and how long it stays queued or archived. */
export const PERSISTENCE_FIELDS: GroupFields<'persistence'> = {
  locationTemplate: {
    type: 'string',
    nullable: true,
    template: 'location',
    default: null,
    doc: 'Template of a location record (<%= tag %>); null = the default schema.',
  },
  geofenceTemplate: {
    type: 'string',
    nullable: true,
    template: 'geofence',
    default: null,
    doc: 'Template of a geofence record; null = the default schema.',
  },
  maxDaysToPersist: { type: 'integer', min: 1, default: 1, doc: 'Days a record stays queued before it is dropped.' },
  maxRecordsToPersist: {
    type: 'integer',
    min: 0,
    allowMinusOne: true,
    default: -1,
    doc: 'Cap on queued records, oldest dropped first; -1 = no cap, 0 = persist nothing.',
  },
  maxDaysToArchive: {
    type: 'integer',
    min: 0,
    default: 7,
    doc: 'Days a delivered record stays in the receipt archive (a server offering receipts can ask for it again); 0 = keep none.',
  },
  maxArchiveBytes: {
    type: 'integer',
    min: 0,
    default: 40_000_000,
    doc: 'Cap on the receipt archive, bytes of record JSON, oldest out first (about 7 days of one record every 10 s).',
  },
  locationsOrderDirection: {
    type: 'enum',
    values: ['ASC', 'DESC'],
    caseInsensitive: true,
    numeric: { 1: 'ASC', [-1]: 'DESC' },
    default: 'ASC',
    doc: 'Order in which records are read and uploaded.',
  },
  persistMode: {
    type: 'integer',
    min: -1,
    max: 2,
    default: 2,
    doc: "The anchor's PersistMode: which records tracking stores. 2 all, 1 locations only, -1 geofences only, 0 none (events still fire; insertLocation always stores).",
  },
  extras: {
    type: 'jsonObject',
    default: {},
    doc: "Keys merged into every record's extras (or into a template's output).",
  },
};
