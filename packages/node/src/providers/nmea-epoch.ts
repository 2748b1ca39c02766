import type { LocationInput } from '@waypost/sdk/internal';
import type { NmeaSentence } from './nmea-sentence.js';

/**
 * A receiver reports one epoch (one instant's solution) over several sentences: RMC (date, speed,
 * course), GGA (fix quality, HDOP, altitude), GSA (DOPs, 2D/3D) and GST (error estimates), in an
 * order that differs between receivers. This assembler collects the sentences that share a UTC
 * time and turns the epoch into one fix when the next epoch begins (or the input ends).
 */

const KNOTS_TO_MPS = 0.514444;

/**
 * Without GST, accuracy is a dilution of precision times a user-equivalent range error. These are
 * nominal one-sigma range errors per GGA fix quality (autonomous GPS ~5 m, DGPS/SBAS ~1.5 m, RTK
 * centimetres), so a DOP-derived accuracy is of the same order as a receiver's own estimate.
 */
const UERE_BY_QUALITY_M: Record<number, number> = { 1: 5, 2: 1.5, 4: 0.05, 5: 0.5 };
const DEFAULT_UERE_M = 5;

interface Epoch {
  timeText: string;
  msOfDay: number;
  rmc?: Extract<NmeaSentence, { type: 'RMC' }>;
  gga?: Extract<NmeaSentence, { type: 'GGA' }>;
  gsa?: Extract<NmeaSentence, { type: 'GSA' }>;
  gst?: Extract<NmeaSentence, { type: 'GST' }>;
}

export class NmeaEpochAssembler {
  private epoch: Epoch | null = null;
  /** GSA carries no time: it belongs to the epoch in progress (or the next one to start). */
  private looseGsa: Extract<NmeaSentence, { type: 'GSA' }> | undefined;
  private lastDate: number | null = null;
  /** Epochs that ended without a valid position (receiver searching, RMC 'V', GGA quality 0). */
  noFix = 0;

  /** @param today midnight UTC of the current day, for receivers that never send a date. */
  constructor(private readonly today: () => number) {}

  push(sentence: NmeaSentence): LocationInput[] {
    if (sentence.type === 'OTHER') return [];
    if (sentence.type === 'GSA') {
      if (this.epoch) this.epoch.gsa = sentence;
      else this.looseGsa = sentence;
      return [];
    }
    if (!sentence.time) return [];
    const out: LocationInput[] = [];
    if (this.epoch && this.epoch.timeText !== sentence.time.text) out.push(...this.flush());
    if (!this.epoch) {
      this.epoch = { timeText: sentence.time.text, msOfDay: sentence.time.msOfDay };
      if (this.looseGsa) this.epoch.gsa = this.looseGsa;
      this.looseGsa = undefined;
    }
    if (sentence.type === 'RMC') this.epoch.rmc = sentence;
    else if (sentence.type === 'GGA') this.epoch.gga = sentence;
    else this.epoch.gst = sentence;
    return out;
  }

  /** Ends the epoch in progress: at the end of input, or when the next epoch starts. */
  flush(): LocationInput[] {
    const epoch = this.epoch;
    this.epoch = null;
    if (!epoch) return [];
    const fix = this.toFix(epoch);
    if (!fix) this.noFix++;
    return fix ? [fix] : [];
  }

  private toFix({ rmc, gga, gsa, gst, msOfDay }: Epoch): LocationInput | null {
    if (rmc && !rmc.valid) return null;
    if (gga && gga.quality === 0) return null;
    if (gsa && gsa.fixType < 2) return null;
    const latitude = gga?.latitude ?? rmc?.latitude ?? null;
    const longitude = gga?.longitude ?? rmc?.longitude ?? null;
    if (latitude === null || longitude === null) return null;
    if (rmc?.date != null) this.lastDate = rmc.date;
    const date = this.lastDate ?? this.today();
    const uere = UERE_BY_QUALITY_M[gga?.quality ?? 1] ?? DEFAULT_UERE_M;
    const hdop = gsa?.hdop ?? gga?.hdop ?? null;
    const horizontal =
      gst?.latitudeError != null && gst.longitudeError != null
        ? Math.hypot(gst.latitudeError, gst.longitudeError)
        : hdop !== null
          ? hdop * uere
          : -1;
    const is3d = gsa ? gsa.fixType === 3 : gga?.altitude != null;
    const vertical = !is3d
      ? -1
      : gst?.altitudeError != null
        ? gst.altitudeError
        : gsa?.vdop != null
          ? gsa.vdop * uere
          : -1;
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      timestamp: date + msOfDay,
      coords: {
        latitude,
        longitude,
        accuracy: horizontal < 0 ? -1 : round(horizontal),
        speed: rmc?.speedKnots != null ? round(rmc.speedKnots * KNOTS_TO_MPS) : -1,
        heading: rmc?.course != null && rmc.course >= 0 && rmc.course < 360 ? rmc.course : -1,
        altitude: is3d && gga?.altitude != null ? gga.altitude : -1,
        altitude_accuracy: vertical < 0 ? -1 : round(vertical),
      },
    };
  }
}
