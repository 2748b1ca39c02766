// Issue 17's sweep (packages/sdk/test/contract/upload-sweep-cases.ts) end to end on the SQLite
// store and Node's fetch over a socket. The same grid runs on the sdk's test kit in
// packages/sdk/test/upload-sweep.test.ts.
import { describe, it } from 'vitest';
import { runSweepCase, sweepConfig, SWEEP_CASES } from '../../sdk/test/contract/upload-sweep-cases.js';
import { startHarness } from './support/harness.js';

describe('upload sweep on the SQLite store', () => {
  it.each(SWEEP_CASES)('%s', async (_name, c) => {
    // A case sends at most 13 requests: an SDK that sends far more fails at once, not at 2,000.
    await runSweepCase(c, await startHarness(sweepConfig(c), { maxRequests: 30 }));
  });
});
