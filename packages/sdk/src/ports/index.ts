export type * from './clock.js';
export type * from './network.js';
export type * from './transport.js';
export type * from './store.js';
export { NETWORK_TYPES } from './network.js';
export type * from './location-provider.js';
export type * from './upload-gate.js';
export type * from './app-state.js';
export { OPEN_GATE } from './upload-gate.js';
