// The --faults spec (issue 31): classes in the order given, N devices each, `all` for every class;
// a misspelt class names the nearest one, and nothing malformed is taken for a class.
import { describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../src/simulate/fault-spec.js';
import { FAULT_NAMES } from '../src/simulate/faults.js';

describe('parseFaultSpec', () => {
  it('numbers the devices in the order given', () => {
    expect(parseFaultSpec('no-network=2, parked')).toEqual(['no-network', 'no-network', 'parked']);
    expect(parseFaultSpec('all')).toEqual(FAULT_NAMES);
    expect(parseFaultSpec('all=2')).toHaveLength(2 * FAULT_NAMES.length);
  });

  it('names what is wrong, and the class meant by a misspelt one', () => {
    expect(() => parseFaultSpec('clock-of')).toThrow(/unknown class "clock-of"; did you mean clock-off\?/);
    expect(() => parseFaultSpec('parked=0')).toThrow(/asks for no device/);
    expect(() => parseFaultSpec('parked,,killed')).toThrow(/empty entry/);
    expect(() => parseFaultSpec('parked=x')).toThrow(/is not CLASS or CLASS=N/);
    expect(() => parseFaultSpec('')).toThrow(/names no class/);
    expect(() => parseFaultSpec('all=1000')).toThrow(/more than 1000 devices/);
    expect(() => parseFaultSpec('<script>')).toThrow(/is not CLASS or CLASS=N/);
  });
});
