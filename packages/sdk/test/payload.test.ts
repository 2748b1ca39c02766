import { describe, expect, it } from 'vitest';
import { buildPayload } from '@waypost/sdk/internal';

const record = JSON.stringify({ uuid: 'u1', coords: { latitude: 1, longitude: 2 } });
const record2 = JSON.stringify({ uuid: 'u2', coords: { latitude: 3, longitude: 4 } });

describe('buildPayload (spec 2.3)', () => {
  it('single record, default root: the record under "location", params at the root', () => {
    const { body } = buildPayload([record], {
      rootProperty: 'location',
      params: { device_id: 'd1' },
      batchSync: false,
    });
    expect(JSON.parse(body)).toEqual({ location: JSON.parse(record), device_id: 'd1' });
  });

  it('single record, custom root: the record under that name, params beside it', () => {
    const { body } = buildPayload([record], { rootProperty: 'data', params: { a: 1 }, batchSync: false });
    expect(JSON.parse(body)).toEqual({ data: JSON.parse(record), a: 1 });
  });

  it('single record, root ".": the record fields at the root with params merged, record fields winning', () => {
    const { body } = buildPayload([record], { rootProperty: '.', params: { uuid: 'param', a: 1 }, batchSync: false });
    expect(JSON.parse(body)).toEqual({ ...JSON.parse(record), a: 1 });
  });

  it('batch: always an array under the root key, params beside it', () => {
    const { body } = buildPayload([record], { rootProperty: 'location', params: { a: 1 }, batchSync: true });
    expect(JSON.parse(body)).toEqual({ location: [JSON.parse(record)], a: 1 });
  });

  it('batch with root ".": a bare array; params have no place and are reported dropped', () => {
    const payload = buildPayload([record, record2], { rootProperty: '.', params: { a: 1 }, batchSync: true });
    expect(JSON.parse(payload.body)).toEqual([JSON.parse(record), JSON.parse(record2)]);
    expect(payload.paramsDropped).toBe(true);
  });
});
