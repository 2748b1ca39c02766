// Issue 17 item 12: the options of createBackgroundGeolocation() are checked like configuration.
// The check and the rules of the ports every platform takes live in the sdk (checkOptions,
// PORT_RULES); each platform adds its own options (packages/node/test/create-options.test.ts).
import { describe, expect, it } from 'vitest';
import { WaypostError } from '@waypost/sdk';
import { checkOptions, PORT_RULES, type OptionRules } from '@waypost/sdk/internal';
import { ManualNetwork } from '@waypost/sdk/testing';

const refusal = (options: unknown, rules: OptionRules = PORT_RULES) => {
  try {
    checkOptions(options, rules, 'createBackgroundGeolocation');
  } catch (error) {
    expect(error).toBeInstanceOf(WaypostError);
    return { code: (error as WaypostError).code, key: (error as WaypostError).key, message: (error as Error).message };
  }
  throw new Error(`accepted: ${JSON.stringify(options)}`);
};

describe('checkOptions with the ports every platform takes', () => {
  it.each([
    [{ transport: {} }, 'transport', /option transport must be an object with send\(\)/],
    [{ network: {} }, 'network', /option network must be an object with current\(\), subscribe\(\)/],
    [{ clock: { now: () => 0 } }, 'clock', /option clock must be an object with setTimeout\(\), clearTimeout\(\)/],
    [{ store: 'sqlite' }, 'store', /option store must be an object with close\(\)/],
    [{ device: { model: 5 } }, 'device', /option device \.model must be a string/],
  ])('%j is refused with INVALID_OPTION naming %s', (options, key, message) => {
    const error = refusal({ network: new ManualNetwork('none'), ...options });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', key });
    expect(error.message).toMatch(message);
  });

  it('each kind of rule: both sides', () => {
    const rules: OptionRules = {
      name: { kind: 'string', nonEmpty: true },
      flag: { kind: 'boolean' },
      mode: { kind: 'oneOf', values: ['A', 'B'] },
      hook: { kind: 'function' },
      battery: { kind: 'falseOrFunction' },
      port: { kind: 'port', methods: ['send'], orNull: true },
    };
    expect(() =>
      checkOptions({ name: 'x', flag: false, mode: 'B', hook: () => 0, battery: false }, rules, 'f'),
    ).not.toThrow();
    expect(() => checkOptions({ port: null, battery: () => 1 }, rules, 'f')).not.toThrow();
    expect(refusal({ name: ' ' }, rules).message).toMatch(/option name must not be empty, got " "/);
    expect(refusal({ flag: 'yes' }, rules).message).toMatch(/option flag must be true or false/);
    expect(refusal({ mode: 'C' }, rules).message).toMatch(/option mode must be one of "A", "B", got "C"/);
    expect(refusal({ hook: 'x' }, rules).message).toMatch(/option hook must be a function, got "x"/);
    expect(refusal({ battery: true }, rules).message).toMatch(/option battery must be false or a function/);
    expect(refusal({ port: {} }, rules).message).toMatch(/option port must be an object with send\(\), got an object/);
    expect(refusal({ nmae: 'x' }, rules)).toMatchObject({
      key: 'nmae',
      message: expect.stringMatching(/unknown option nmae \(options: name, flag/),
    });
  });

  it('options that are not an object are refused; undefined ones mean the default', () => {
    expect(refusal('waypost.db')).toMatchObject({ code: 'INVALID_OPTION', key: undefined });
    expect(refusal([])).toMatchObject({ message: expect.stringContaining('options must be an object, got an array') });
    expect(() => checkOptions(undefined, PORT_RULES, 'f')).not.toThrow();
    expect(() => checkOptions({ clock: undefined, network: undefined }, PORT_RULES, 'f')).not.toThrow();
  });
});
