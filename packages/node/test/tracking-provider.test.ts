// createBackgroundGeolocation's check of a tracking provider. How the engine runs one (while
// tracking is enabled, fixes in order, errors logged): packages/sdk/test/tracking-provider.test.ts.
import { describe, expect, it } from 'vitest';
import { createBackgroundGeolocation } from '@waypost/node';

describe('trackingProvider', () => {
  it('a provider without stop() is refused as an option', async () => {
    const refused = await createBackgroundGeolocation({
      database: ':memory:',
      trackingProvider: { start() {} } as never,
    }).catch((error: { code: string; key: string }) => error);
    expect(refused).toMatchObject({ code: 'INVALID_OPTION', key: 'trackingProvider' });
  });
});
