// Issue 17 item 12: the options of createBackgroundGeolocation() are checked like configuration.
// A bad one is refused at once with WaypostError INVALID_OPTION naming it, before anything is
// opened, never left to throw a raw TypeError later. The check and the ports' rules are the sdk's
// (packages/sdk/test/check-options.test.ts); here, Node's own options and one port to show they apply.
import { describe, expect, it } from 'vitest';
import { createBackgroundGeolocation, ManualNetwork, WaypostError } from '@waypost/node';

const refusal = async (options: unknown) => {
  const error = await createBackgroundGeolocation(options as never).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WaypostError);
  return { code: (error as WaypostError).code, key: (error as WaypostError).key, message: (error as Error).message };
};

describe('createBackgroundGeolocation(options)', () => {
  it.each([
    [{ durability: 'bogus' }, 'durability', /option durability must be one of "NORMAL", "FULL", got "bogus"/],
    [{ network: {} }, 'network', /option network must be an object with current\(\), subscribe\(\)/],
    [{ database: '' }, 'database', /option database must not be empty/],
    [{ database: 42 }, 'database', /option database must be a string, got 42/],
    [{ battery: true }, 'battery', /option battery must be false or a function/],
    [{ locationProvider: { start() {} } }, 'locationProvider', /must be an object with stop\(\)/],
    [{ mail: 'me@example.com' }, 'mail', /option mail must be a function/],
    [{ databse: './x.db' }, 'databse', /unknown option databse \(options: /],
  ])('%j is refused with INVALID_OPTION naming %s', async (options, key, message) => {
    const error = await refusal({ database: ':memory:', network: new ManualNetwork('none'), ...options });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', key });
    expect(error.message).toMatch(message);
  });

  it('options that are not an object are refused too; undefined members mean the default', async () => {
    expect(await refusal('waypost.db')).toMatchObject({ code: 'INVALID_OPTION', key: undefined });
    const bg = await createBackgroundGeolocation({
      database: ':memory:',
      network: new ManualNetwork('none'),
      clock: undefined,
    });
    expect(await bg.getCount()).toBe(0);
    await bg.close();
  });
});
