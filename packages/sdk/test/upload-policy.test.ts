import { describe, expect, it } from 'vitest';
import { decideAutoUpload, type PolicyState, type SyncTrigger } from '@waypost/sdk/internal';

type Trigger = Exclude<SyncTrigger, 'manual'>;
const http: PolicyState['http'] = {
  url: 'https://example.com/locations',
  autoSync: true,
  autoSyncThreshold: 0,
  disableAutoSyncOnCellular: false,
};
const state = (patch: Partial<PolicyState['http']> = {}, network: PolicyState['network'] = 'wifi', queued = 1) => ({
  http: { ...http, ...patch },
  network,
  queued,
});

// Spec 3 rules 1-5 as rows: [rule, trigger, state, upload?, reason when not]
const ROWS: [string, Trigger, PolicyState, boolean, string?][] = [
  ['rule 1: threshold 0 uploads after a location', 'location', state(), true],
  ['no url: never', 'location', state({ url: null }), false, 'no http.url'],
  ['rule 4: autoSync false never uploads automatically', 'location', state({ autoSync: false }), false, 'autoSync'],
  ['rule 4: not even on a motion change', 'motionchange', state({ autoSync: false }), false, 'autoSync'],
  ['an empty queue: nothing to do', 'heartbeat', state({}, 'wifi', 0), false, 'queue empty'],
  ['rule 2: below the threshold waits', 'location', state({ autoSyncThreshold: 3 }, 'wifi', 2), false, '2 of 3'],
  ['rule 2: at the threshold uploads', 'location', state({ autoSyncThreshold: 3 }, 'wifi', 3), true],
  ['rule 2: above the threshold uploads', 'heartbeat', state({ autoSyncThreshold: 3 }, 'wifi', 9), true],
  ['rule 2: the threshold holds for the heartbeat', 'heartbeat', state({ autoSyncThreshold: 3 }, 'wifi', 1), false],
  ['rule 2: the threshold holds for connectivity', 'connectivity', state({ autoSyncThreshold: 3 }, 'wifi', 1), false],
  ['rule 3: a motion change ignores the threshold', 'motionchange', state({ autoSyncThreshold: 50 }, 'wifi', 1), true],
  [
    'rule 5: cellular waits for Wi-Fi',
    'location',
    state({ disableAutoSyncOnCellular: true }, 'cellular'),
    false,
    'Wi-Fi',
  ],
  ['rule 5: even at a motion change', 'motionchange', state({ disableAutoSyncOnCellular: true }, 'cellular'), false],
  ['rule 5: wifi uploads', 'connectivity', state({ disableAutoSyncOnCellular: true }, 'wifi'), true],
  ['rule 5: ethernet counts as allowed', 'location', state({ disableAutoSyncOnCellular: true }, 'ethernet'), true],
  ['cellular without the policy uploads', 'location', state({}, 'cellular'), true],
  ['no connection: never', 'location', state({}, 'none'), false, 'no connection'],
  ['no connection: not even at a motion change', 'motionchange', state({}, 'none'), false],
  ['start uploads a non-empty queue', 'start', state(), true],
  ['ready uploads a non-empty queue', 'ready', state(), true],
];

describe('decideAutoUpload (spec 3 rules 1-5)', () => {
  it.each(ROWS)('%s', (_rule, trigger, input, upload, reason) => {
    const decision = decideAutoUpload(trigger, input);
    expect(decision.upload).toBe(upload);
    if (!decision.upload && reason) expect(decision.reason).toContain(reason);
  });
});
