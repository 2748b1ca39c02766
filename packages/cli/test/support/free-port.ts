// One helper for every package's tests: a closed port no port-0 server can take meanwhile.
export { freePort } from '../../../node/test/support/free-port.js';
