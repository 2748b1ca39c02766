// DOM helpers of the tracker page: text only (textContent), never HTML built from data.
// Lengths follow the unit setting this browser chose in the dashboard (metric unless it chose imperial).
// Built, the import reads /assets/format.js (build-pages.mjs rewrites it).
import type { HttpEvent, Location } from '@waypost/browser';
import { length } from '../dashboard/settings/format.js';

/** An element of the tracker page (track/index.html): its absence is a broken page. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function setText(id: string, text: unknown): void {
  byId(id).textContent = String(text);
}

export function show(id: string, visible: boolean): void {
  byId(id).hidden = !visible;
}

const time = (iso: string | number): string => new Date(iso).toLocaleTimeString();

export function describeFix(location: Location): string {
  const { latitude, longitude, accuracy } = location.coords;
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)} (±${length(accuracy)}) at ${time(location.timestamp)}`;
}

export function describeUpload(event: HttpEvent): string {
  const when = new Date().toLocaleTimeString();
  if (event.success) return `${when}: delivered (HTTP ${event.status})`;
  return event.status === 0
    ? `${when}: no connection, kept in the queue`
    : `${when}: refused (HTTP ${event.status}), kept`;
}

export const NETWORK_LABELS: Record<string, string> = {
  wifi: 'online',
  ethernet: 'online',
  cellular: 'online (cellular)',
  none: 'offline',
};

/**
 * What a refused enrollment means for the person holding the phone: the server's own message
 * speaks of HTTP headers, which a page user never sees; the code field is what they can act on.
 */
const ENROLL_REFUSALS: Record<string, { empty: string; typed: string }> = {
  REGISTRATION_SECRET_REQUIRED: {
    empty: 'This server asks for an enrollment code: type it into the code field.',
    typed: 'The enrollment code is not the right one.',
  },
  REGISTRATION_CLOSED: {
    empty: 'This server enrolls devices with its admin token only: type it into the code field.',
    typed: 'The code is neither the enrollment code nor the admin token.',
  },
};

export function describeEnrollRefusal(
  reply: { code?: unknown; error?: unknown },
  status: number,
  codeTyped: boolean,
): string {
  const known = typeof reply.code === 'string' ? ENROLL_REFUSALS[reply.code] : undefined;
  if (known) return codeTyped ? known.typed : known.empty;
  return typeof reply.error === 'string' ? reply.error : `The server refused the enrollment (HTTP ${status})`;
}
