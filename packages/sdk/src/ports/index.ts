export type * from './clock.js';
export type * from './network.js';
export type * from './transport.js';
export type * from './store.js';
export { NETWORK_TYPES } from './network.js';
export type * from './location-provider.js';
