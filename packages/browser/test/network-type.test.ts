import { describe, expect, it } from 'vitest';
import { networkTypeOf } from '../src/browser-network.js';

describe('networkTypeOf: navigator.onLine and the Network Information API type', () => {
  it.each([
    [false, 'wifi', 'none'],
    [true, 'none', 'none'],
    [true, 'cellular', 'cellular'],
    [true, 'ethernet', 'ethernet'],
    [true, 'wifi', 'wifi'],
    [true, 'wimax', 'wifi'],
    [true, 'unknown', 'wifi'],
    [true, undefined, 'wifi'],
  ] as const)('onLine %s, type %s -> %s', (onLine, type, expected) => {
    expect(networkTypeOf(onLine, type)).toBe(expected);
  });
});
