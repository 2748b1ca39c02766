// Issue 17's sweep (packages/sdk/test/contract/upload-sweep-cases.ts) on the test kit: a memory
// store and the scripted fetch server. The same grid runs on SQLite and a socket in
// packages/node/test/upload-sweep.test.ts.
import { describe, it } from 'vitest';
import { runSweepCase, sweepConfig, SWEEP_CASES } from './contract/upload-sweep-cases.js';
import { engine } from './support/engine.js';

describe('upload sweep on the memory store', () => {
  it.each(SWEEP_CASES)('%s', async (_name, c) => {
    // A case sends at most 13 requests: an engine that sends far more fails at once, not at 5,000.
    await runSweepCase(c, await engine(sweepConfig(c), { maxRequests: 30 }));
  });
});
