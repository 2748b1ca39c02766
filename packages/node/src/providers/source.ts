import type { Clock, LocationProvider } from '@waypost/sdk/internal';
import { createGpsdProvider, GPSD_DEFAULT_HOST, GPSD_DEFAULT_PORT } from './gpsd-provider.js';
import { createGpxReplayProvider } from './gpx-provider.js';
import {
  createNmeaFileProvider,
  createNmeaSerialProvider,
  createNmeaTcpProvider,
  DEFAULT_BAUD,
} from './nmea-provider.js';

/** A location source as written on a command line or in a configuration file. */
export type SourceSpec =
  | { kind: 'gpsd'; host: string; port: number }
  | { kind: 'nmea-serial'; path: string; baud: number }
  | { kind: 'nmea-tcp'; host: string; port: number }
  | { kind: 'nmea-file'; path: string }
  | { kind: 'gpx'; path: string };

export const SOURCE_FORMS =
  'gpsd://HOST:PORT, nmea:/dev/ttyUSB0[?baud=4800], nmea-tcp://HOST:PORT, nmea-file:PATH (- for stdin), gpx:PATH';

/** Line speeds a serial GNSS receiver uses; anything else is a typo. */
const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600];

export class SourceError extends Error {
  readonly code = 'INVALID_SOURCE';
}

function hostPort(rest: string, fallbackPort: number | null, text: string): { host: string; port: number } {
  const m = /^\/\/(\[[0-9a-fA-F:.]+\]|[^:/?#[\]]+)?(?::(\d+))?\/?$/.exec(rest);
  if (!m) throw new SourceError(`source ${JSON.stringify(text)}: expected //HOST:PORT after the scheme`);
  const host = (m[1] ?? GPSD_DEFAULT_HOST).replace(/^\[(.*)\]$/, '$1');
  const port = m[2] !== undefined ? Number(m[2]) : fallbackPort;
  if (port === null) throw new SourceError(`source ${JSON.stringify(text)}: a port is required (HOST:PORT)`);
  if (!(port >= 1 && port <= 65535))
    throw new SourceError(`source ${JSON.stringify(text)}: port ${port} is not 1-65535`);
  return { host, port };
}

/** Parses a source; the error names the source and what was expected. */
export function parseSource(text: string): SourceSpec {
  const colon = text.indexOf(':');
  const scheme = colon === -1 ? '' : text.slice(0, colon);
  const rest = colon === -1 ? '' : text.slice(colon + 1);
  switch (scheme) {
    case 'gpsd':
      return { kind: 'gpsd', ...hostPort(rest, GPSD_DEFAULT_PORT, text) };
    case 'nmea-tcp':
      return { kind: 'nmea-tcp', ...hostPort(rest, null, text) };
    case 'nmea': {
      const [path = '', query = ''] = rest.split('?', 2);
      if (!path.startsWith('/'))
        throw new SourceError(`source ${JSON.stringify(text)}: expected a device path such as nmea:/dev/ttyUSB0`);
      const params = new URLSearchParams(query);
      for (const key of params.keys()) {
        if (key !== 'baud')
          throw new SourceError(`source ${JSON.stringify(text)}: unknown option ${JSON.stringify(key)} (only baud)`);
      }
      const baudText = params.get('baud');
      const baud = baudText === null ? DEFAULT_BAUD : Number(baudText);
      if (!BAUD_RATES.includes(baud)) {
        throw new SourceError(
          `source ${JSON.stringify(text)}: baud ${JSON.stringify(baudText)} is not one of ${BAUD_RATES.join(', ')}`,
        );
      }
      return { kind: 'nmea-serial', path, baud };
    }
    case 'nmea-file':
    case 'gpx':
      if (rest === '')
        throw new SourceError(`source ${JSON.stringify(text)}: a file path is required after ${scheme}:`);
      if (scheme === 'gpx' && rest === '-')
        throw new SourceError(`source ${JSON.stringify(text)}: GPX cannot be read from standard input`);
      return { kind: scheme, path: rest };
    default:
      throw new SourceError(`source ${JSON.stringify(text)} is not one of: ${SOURCE_FORMS}`);
  }
}

/** Whether the source ends by itself (a file) rather than running until stopped. */
export const isFiniteSource = (spec: SourceSpec): boolean => spec.kind === 'nmea-file' || spec.kind === 'gpx';

/** The provider for a source. `replaySpeed` applies to file sources (1 = recorded pace, 0 = no waiting). */
export function createProviderFromSource(
  spec: SourceSpec,
  options: { clock: Clock; replaySpeed?: number },
): LocationProvider {
  const { clock } = options;
  const speed = options.replaySpeed ?? 1;
  switch (spec.kind) {
    case 'gpsd':
      return createGpsdProvider({ host: spec.host, port: spec.port, clock });
    case 'nmea-tcp':
      return createNmeaTcpProvider({ host: spec.host, port: spec.port, clock });
    case 'nmea-serial':
      return createNmeaSerialProvider({ path: spec.path, baud: spec.baud, clock });
    case 'nmea-file':
      return createNmeaFileProvider({ path: spec.path, speed, clock });
    case 'gpx':
      return createGpxReplayProvider({ path: spec.path, speed, clock });
  }
}
