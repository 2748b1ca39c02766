import { describe, expect, it } from 'vitest';
import { classifyFailure, classifyResponse, type UploadOutcome } from '@waypost/sdk/internal';

// Spec 4.1 / 7: any 2xx delivers; anything else keeps the records for a retry (401 first tries a refresh;
// a 4xx about the records rather than the request is `refused`, and the batch is split, issue 19).
describe('classifyResponse', () => {
  it.each<[number, UploadOutcome]>([
    [200, { kind: 'delivered', status: 200 }],
    [201, { kind: 'delivered', status: 201 }],
    [204, { kind: 'delivered', status: 204 }],
    [299, { kind: 'delivered', status: 299 }],
    [199, { kind: 'retry', status: 199, reason: 'status' }],
    [300, { kind: 'retry', status: 300, reason: 'status' }],
    [304, { kind: 'retry', status: 304, reason: 'status' }],
    [400, { kind: 'refused', status: 400 }],
    [409, { kind: 'refused', status: 409 }],
    [422, { kind: 'refused', status: 422 }],
    [401, { kind: 'unauthorized', status: 401 }],
    [403, { kind: 'retry', status: 403, reason: 'status' }],
    [404, { kind: 'retry', status: 404, reason: 'status' }],
    [405, { kind: 'retry', status: 405, reason: 'status' }],
    [406, { kind: 'retry', status: 406, reason: 'status' }],
    [408, { kind: 'retry', status: 408, reason: 'status' }],
    [410, { kind: 'retry', status: 410, reason: 'status' }],
    [415, { kind: 'retry', status: 415, reason: 'status' }],
    [413, { kind: 'tooLarge', status: 413 }],
    [429, { kind: 'retry', status: 429, reason: 'status' }],
    [500, { kind: 'retry', status: 500, reason: 'status' }],
    [503, { kind: 'retry', status: 503, reason: 'status' }],
  ])('%i', (status, outcome) => {
    expect(classifyResponse({ status, text: '' })).toEqual(outcome);
  });

  it('ignores the body: a 200 with an error body is still delivered', () => {
    expect(classifyResponse({ status: 200, text: '{"error":"x"}' }).kind).toBe('delivered');
  });
});

describe('classifyFailure', () => {
  it.each<['TIMEOUT' | 'NETWORK', UploadOutcome]>([
    ['TIMEOUT', { kind: 'retry', status: 0, reason: 'timeout' }],
    ['NETWORK', { kind: 'retry', status: 0, reason: 'network' }],
  ])('%s is a retry with status 0', (code, outcome) => {
    expect(classifyFailure(code)).toEqual(outcome);
  });
});
