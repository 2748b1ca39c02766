// '@waypost/sdk/testing': the doubles the engine's tests run on, shipped so that the adapters, the
// server and applications test against the same ones. Test-framework free (no vitest import).
export { ManualClock, drainMicrotasks, type Settler } from '../clock/manual-clock.js';
export { ManualNetwork, type NetworkState } from '../network/manual-network.js';
export { createMemoryStore } from '../store/memory-store.js';
export {
  createScriptedServer,
  SCRIPTED_URL,
  type RecordedRequest,
  type Reply,
  type Responder,
  type ScriptedServer,
} from './scripted-fetch.js';
export { openEngine, startEngine, advanceUntil, at, uuidsOf, type Engine, type EngineOptions } from './start-engine.js';
export { scriptedProvider, type ScriptedProvider } from './scripted-provider.js';
export { within } from './bounded.js';
