// DOM helpers of the tracker page: text only (textContent), never HTML built from data.
// Lengths follow the unit setting this browser chose in the dashboard (metric unless it chose imperial).
import { length } from '/assets/format.js';

export const byId = (id) => document.getElementById(id);

export function setText(id, text) {
  byId(id).textContent = String(text);
}

export function show(id, visible) {
  byId(id).hidden = !visible;
}

const time = (iso) => new Date(iso).toLocaleTimeString();

export function describeFix(location) {
  const { latitude, longitude, accuracy } = location.coords;
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)} (±${length(accuracy)}) at ${time(location.timestamp)}`;
}

export function describeUpload(event) {
  const when = new Date().toLocaleTimeString();
  if (event.success) return `${when}: delivered (HTTP ${event.status})`;
  return event.status === 0
    ? `${when}: no connection, kept in the queue`
    : `${when}: refused (HTTP ${event.status}), kept`;
}

export const NETWORK_LABELS = { wifi: 'online', ethernet: 'online', cellular: 'online (cellular)', none: 'offline' };

/**
 * What a refused enrollment means for the person holding the phone: the server's own message
 * speaks of HTTP headers, which a page user never sees; the code field is what they can act on.
 */
const ENROLL_REFUSALS = {
  REGISTRATION_SECRET_REQUIRED: {
    empty: 'This server asks for an enrollment code: type it into the code field.',
    typed: 'The enrollment code is not the right one.',
  },
  REGISTRATION_CLOSED: {
    empty: 'This server enrolls devices with its admin token only: type it into the code field.',
    typed: 'The code is neither the enrollment code nor the admin token.',
  },
};

export function describeEnrollRefusal(reply, status, codeTyped) {
  const known = ENROLL_REFUSALS[reply.code];
  if (known) return codeTyped ? known.typed : known.empty;
  return reply.error ?? `The server refused the enrollment (HTTP ${status})`;
}
