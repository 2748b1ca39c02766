import { failures } from '../../http/route-schema.js';
import {
  DEVICE_PARAMS,
  DEVICE_READER_FAILURES,
  MS,
  NEWEST,
  queryOf,
  queryText,
  RANGE_QUERY,
  READER_FAILURES,
  TRIPS,
} from './read-common.js';
import { DEVICE } from './devices.js';
import { DEVICE_GEOFENCE } from './geofences.js';

/**
 * The contracts of the dashboard's read routes (routes/dashboard-api.ts): every field the
 * handlers answer is declared, since a reply schema drops what it does not name, and the pages'
 * types are generated from these (issue 42).
 */

const num = (description: string) => ({ type: ['number', 'null'], description }) as const;
const str = (description: string) => ({ type: ['string', 'null'], description }) as const;

export const COMMANDS_SCHEMA = {
  summary: 'The remote commands a device takes, for the command form',
  response: {
    200: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          takes: { type: 'string', description: 'What its argument is, for a person' },
          argument: { type: 'boolean', description: 'Whether it takes an argument' },
        },
        required: ['name', 'takes', 'argument'],
        additionalProperties: false,
      },
    },
    ...failures(...READER_FAILURES),
  },
} as const;

export const DEVICES_SCHEMA = {
  summary: "The devices the caller may see, as the dashboard's list shows them",
  response: { 200: { type: 'array', items: DEVICE }, ...failures(...READER_FAILURES) },
} as const;

export const TRACK_SCHEMA = {
  summary: "A device's track over a range, simplified for a zoom level and split into trips",
  params: DEVICE_PARAMS,
  querystring: queryOf({
    ...RANGE_QUERY,
    zoom: queryText('The map zoom the track is simplified for, 0..22 (default 12)'),
    breaks: queryText("The ledger's holes as from:to epoch ms, comma separated: the trips are cut there"),
  }),
  response: {
    200: {
      type: 'object',
      properties: {
        deviceId: { type: 'string' },
        zoom: { type: 'integer' },
        positions: { type: 'integer', description: 'Positions read' },
        truncated: { type: 'boolean', description: 'Older positions or trips were left out' },
        newest: NEWEST,
        trips: TRIPS,
      },
      required: ['deviceId', 'zoom', 'positions', 'truncated', 'newest', 'trips'],
      additionalProperties: false,
    },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
  },
} as const;

const LAT_LON = {
  type: 'object',
  properties: { lat: { type: 'number' }, lon: { type: 'number' } },
  required: ['lat', 'lon'],
  additionalProperties: false,
} as const;

const TRIP = {
  type: 'object',
  properties: {
    start: MS,
    end: MS,
    durationMs: { type: 'integer' },
    distanceM: { type: 'number', description: 'Along the recorded positions, in metres' },
    averageSpeedMps: num('Metres per second; null for a trip of no duration'),
    maxSpeedMps: num('The fastest few seconds, in metres per second; null: too short to tell'),
    points: { type: 'integer' },
    from: LAT_LON,
    to: LAT_LON,
  },
  required: ['start', 'end', 'durationMs', 'distanceM', 'averageSpeedMps', 'maxSpeedMps', 'points', 'from', 'to'],
  additionalProperties: false,
} as const;

const STOP = {
  type: 'object',
  properties: {
    start: MS,
    end: MS,
    durationMs: { type: 'integer' },
    lat: { type: 'number' },
    lon: { type: 'number' },
  },
  required: ['start', 'end', 'durationMs', 'lat', 'lon'],
  additionalProperties: false,
} as const;

export const TRIPS_SCHEMA = {
  summary: "A device's trips and stops over a range, measured on every position",
  params: DEVICE_PARAMS,
  querystring: queryOf(RANGE_QUERY),
  response: {
    200: {
      type: 'object',
      properties: {
        deviceId: { type: 'string' },
        truncated: { type: 'boolean', description: 'Older positions were not read' },
        trips: { type: 'array', items: TRIP },
        stops: { type: 'array', items: STOP },
      },
      required: ['deviceId', 'truncated', 'trips', 'stops'],
      additionalProperties: false,
    },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
  },
} as const;

/** A stored record for the table: its columns, what the record carried, and the record itself. */
export const STORED_RECORD = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    uuid: { type: 'string' },
    recordedAt: MS,
    receivedAt: MS,
    latitude: num('Null for a record without a position'),
    longitude: num('Null for a record without a position'),
    accuracy: num('Metres'),
    speed: num('Metres per second'),
    odometer: num('Metres'),
    event: str('motionchange, geofence, ...'),
    isMoving: { type: ['boolean', 'null'] },
    activity: str('walking, in_vehicle, ...'),
    battery: num('0..1'),
    record: { description: 'The record as it was stored' },
  },
  required: [
    'id',
    'uuid',
    'recordedAt',
    'receivedAt',
    'latitude',
    'longitude',
    'accuracy',
    'speed',
    'odometer',
    'event',
    'isMoving',
    'activity',
    'battery',
    'record',
  ],
  additionalProperties: false,
} as const;

export const RECORDS_SCHEMA = {
  summary: "One page of a device's records, newest first",
  params: DEVICE_PARAMS,
  querystring: queryOf({
    ...RANGE_QUERY,
    limit: queryText('Records per page, 1..500 (default 50)'),
    before: queryText('The "next" cursor of the page before'),
  }),
  response: {
    200: {
      type: 'object',
      properties: {
        total: { type: 'integer', description: 'Records in the range' },
        records: { type: 'array', items: STORED_RECORD },
        next: str('The cursor of the next (older) page; null: this was the last'),
      },
      required: ['total', 'records', 'next'],
      additionalProperties: false,
    },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
  },
} as const;

export const EVENTS_SCHEMA = {
  summary: "A device's motion changes and geofence crossings in a range, newest first (at most 500)",
  params: DEVICE_PARAMS,
  querystring: queryOf(RANGE_QUERY),
  response: {
    200: { type: 'array', items: STORED_RECORD },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
  },
} as const;

export const GEOFENCES_SCHEMA = {
  summary: 'The geofences a device was told to monitor, from its queued commands',
  params: DEVICE_PARAMS,
  querystring: queryOf(RANGE_QUERY),
  response: { 200: { type: 'array', items: DEVICE_GEOFENCE }, ...failures(...DEVICE_READER_FAILURES) },
} as const;
