// DOM helpers of the tracker page: text only (textContent), never HTML built from data.

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
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)} (±${Math.round(accuracy)} m) at ${time(location.timestamp)}`;
}

export function describeUpload(event) {
  const when = new Date().toLocaleTimeString();
  if (event.success) return `${when}: delivered (HTTP ${event.status})`;
  return event.status === 0
    ? `${when}: no connection, kept in the queue`
    : `${when}: refused (HTTP ${event.status}), kept`;
}

export const NETWORK_LABELS = { wifi: 'online', ethernet: 'online', cellular: 'online (cellular)', none: 'offline' };
