import { MAX_TIMER_MS, type GroupFields } from './field-spec.js';

/** The app group: tracking across the process's life (termination, reboot, heartbeats). */
export const APP_FIELDS: GroupFields<'app'> = {
  stopOnTerminate: {
    type: 'boolean',
    default: true,
    doc: 'Stop tracking when the process ends; false resumes tracking on the next open.',
  },
  startOnBoot: {
    type: 'boolean',
    default: false,
    doc: 'Start tracking when the SDK is opened after a reboot, if it was enabled.',
  },
  heartbeatInterval: {
    type: 'integer',
    min: 1,
    max: Math.floor(MAX_TIMER_MS / 1000),
    default: 60,
    doc: 'Seconds between heartbeats (onHeartbeat, a retry trigger) while started.',
  },
};

export const LOG_LEVELS = ['OFF', 'ERROR', 'WARNING', 'INFO', 'DEBUG', 'VERBOSE'] as const;

/** The logger group: what the SDK's own log keeps. */
export const LOGGER_FIELDS: GroupFields<'logger'> = {
  logLevel: {
    type: 'enum',
    values: LOG_LEVELS,
    caseInsensitive: true,
    numeric: { ...LOG_LEVELS },
    default: 'INFO',
    doc: 'OFF, ERROR, WARNING, INFO, DEBUG or VERBOSE (or 0..5).',
  },
  logMaxDays: { type: 'integer', min: 1, default: 3, doc: 'Days log entries are kept.' },
};

/** The geolocation group: when the device counts as moving, and geofences' first reading. */
export const GEOLOCATION_FIELDS: GroupFields<'geolocation'> = {
  stationaryRadius: {
    type: 'number',
    min: 1,
    default: 25,
    doc: 'Metres the device must leave around where it stopped to be moving again.',
  },
  stopTimeout: {
    type: 'number',
    min: 0,
    default: 5,
    doc: 'Minutes without leaving stationaryRadius before the device is stationary.',
  },
  geofenceInitialTriggerEntry: {
    type: 'boolean',
    default: true,
    doc: 'ENTER for a geofence the device is already inside when the first location arrives.',
  },
};
