/**
 * One NMEA 0183 line in, one typed sentence (or the reason it was refused) out. Pure and total:
 * whatever bytes a receiver, a cable or a file produce, this returns a value and never throws.
 * Only the sentences that carry a position or its accuracy are decoded; any talker (GP, GN, GL,
 * GA, BD, GB, GQ...) is accepted, since multi-constellation receivers label the same sentence
 * differently.
 */

export interface UtcTime {
  /** Milliseconds since midnight UTC. */
  msOfDay: number;
  /** The field as sent; epochs are grouped by it. */
  text: string;
}

export type NmeaSentence =
  | {
      type: 'RMC';
      talker: string;
      time: UtcTime | null;
      /** Midnight UTC of the fix's date, epoch milliseconds; null when the field is empty. */
      date: number | null;
      valid: boolean;
      latitude: number | null;
      longitude: number | null;
      speedKnots: number | null;
      course: number | null;
    }
  | {
      type: 'GGA';
      talker: string;
      time: UtcTime | null;
      latitude: number | null;
      longitude: number | null;
      /** 0 invalid, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning... */
      quality: number;
      hdop: number | null;
      /** Metres above mean sea level. */
      altitude: number | null;
    }
  | { type: 'GSA'; talker: string; fixType: number; pdop: number | null; hdop: number | null; vdop: number | null }
  | {
      type: 'GST';
      talker: string;
      time: UtcTime | null;
      /** One-sigma errors in metres. */
      latitudeError: number | null;
      longitudeError: number | null;
      altitudeError: number | null;
    }
  | { type: 'OTHER'; talker: string; id: string };

export type NmeaRefusal = 'checksum' | 'malformed';

export type NmeaLineResult = { ok: true; sentence: NmeaSentence } | { ok: false; reason: NmeaRefusal };

/** NMEA says 82 characters; proprietary sentences run longer, so allow some slack. */
export const MAX_SENTENCE_CHARS = 200;

const refuse = (reason: NmeaRefusal): NmeaLineResult => ({ ok: false, reason });

/** XOR of every character between '$' and '*'. */
export function nmeaChecksum(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i) & 0xff;
  return sum;
}

function num(field: string | undefined): number | null {
  if (field === undefined || field === '') return null;
  const value = Number(field);
  return Number.isFinite(value) ? value : null;
}

function parseTime(field: string | undefined): UtcTime | null {
  const m = /^(\d\d)(\d\d)(\d\d(?:\.\d+)?)$/.exec(field ?? '');
  if (!m) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23 || min > 59 || s >= 61) return null;
  return { msOfDay: Math.round(((h * 60 + min) * 60 + s) * 1000), text: field! };
}

function parseDate(field: string | undefined): number | null {
  const m = /^(\d\d)(\d\d)(\d\d)$/.exec(field ?? '');
  if (!m) return null;
  const [day, month, yy] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (day < 1 || day > 31 || month < 1 || month > 12) return null;
  // Two-digit years: receivers of the last century are still around, GPS began in 1980.
  return Date.UTC(yy < 80 ? 2000 + yy : 1900 + yy, month - 1, day);
}

/** "4807.038","N" (ddmm.mmm) into signed decimal degrees; null when empty or out of range. */
function parseCoordinate(value: string | undefined, hemisphere: string | undefined, degreeDigits: 2 | 3) {
  if (!value || !hemisphere) return null;
  if (!/^\d+(\.\d+)?$/.test(value)) return null;
  const dot = value.indexOf('.') === -1 ? value.length : value.indexOf('.');
  if (dot !== degreeDigits + 2) return null;
  const degrees = Number(value.slice(0, degreeDigits));
  const minutes = Number(value.slice(degreeDigits));
  if (minutes >= 60) return null;
  const decimal = degrees + minutes / 60;
  const limit = degreeDigits === 2 ? 90 : 180;
  if (decimal > limit) return null;
  if (hemisphere === 'N' || hemisphere === 'E') return decimal;
  if (hemisphere === 'S' || hemisphere === 'W') return -decimal;
  return null;
}

/**
 * Parses one line. Leading garbage (a half-received sentence, line noise) before the last '$' is
 * dropped; a sentence without a valid checksum is refused, since a flipped bit in a coordinate
 * would otherwise be recorded as a real position.
 */
export function parseNmeaLine(line: string): NmeaLineResult {
  const start = line.lastIndexOf('$');
  if (start === -1) return refuse('malformed');
  const sentence = line.slice(start).trimEnd();
  if (sentence.length > MAX_SENTENCE_CHARS) return refuse('malformed');
  const m = /^\$([^*]*)\*([0-9A-Fa-f]{2})$/.exec(sentence);
  if (!m) return refuse(/\*[0-9A-Fa-f]?$|\*[^0-9A-Fa-f]/.test(sentence) ? 'checksum' : 'malformed');
  const body = m[1]!;
  if (nmeaChecksum(body) !== parseInt(m[2]!, 16)) return refuse('checksum');
  if (!/^[\x20-\x7e]*$/.test(body)) return refuse('malformed');
  const f = body.split(',');
  const address = f[0]!;
  if (!/^[A-Z0-9]{5}$/.test(address)) {
    return address.startsWith('P')
      ? { ok: true, sentence: { type: 'OTHER', talker: 'P', id: address } }
      : refuse('malformed');
  }
  const talker = address.slice(0, 2);
  const id = address.slice(2);
  switch (id) {
    case 'RMC':
      return {
        ok: true,
        sentence: {
          type: 'RMC',
          talker,
          time: parseTime(f[1]),
          valid: f[2] === 'A',
          latitude: parseCoordinate(f[3], f[4], 2),
          longitude: parseCoordinate(f[5], f[6], 3),
          speedKnots: num(f[7]),
          course: num(f[8]),
          date: parseDate(f[9]),
        },
      };
    case 'GGA':
      return {
        ok: true,
        sentence: {
          type: 'GGA',
          talker,
          time: parseTime(f[1]),
          latitude: parseCoordinate(f[2], f[3], 2),
          longitude: parseCoordinate(f[4], f[5], 3),
          quality: num(f[6]) ?? 0,
          hdop: num(f[8]),
          altitude: num(f[9]),
        },
      };
    case 'GSA':
      // Fields 3..14 are satellite ids; PDOP, HDOP, VDOP follow (NMEA 4.1 adds a system id after).
      return {
        ok: true,
        sentence: {
          type: 'GSA',
          talker,
          fixType: num(f[2]) ?? 1,
          pdop: num(f[15]),
          hdop: num(f[16]),
          vdop: num(f[17]),
        },
      };
    case 'GST':
      return {
        ok: true,
        sentence: {
          type: 'GST',
          talker,
          time: parseTime(f[1]),
          latitudeError: num(f[6]),
          longitudeError: num(f[7]),
          altitudeError: num(f[8]),
        },
      };
    default:
      return { ok: true, sentence: { type: 'OTHER', talker, id } };
  }
}
