import { OneShotTimer } from '../clock/one-shot-timer.js';
import type { Config } from '../config/types.js';
import type { DeviceHealth } from '../health/device-health.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { NetworkMonitor } from '../ports/network.js';
import type { UploadGate } from '../ports/upload-gate.js';
import type { Uploader } from '../queue/uploader.js';

export interface PresenceDeps {
  clock: Clock;
  config: () => Config;
  logger: SdkLogger;
  network: NetworkMonitor;
  gate: UploadGate;
  health: DeviceHealth | undefined;
  uploader: Uploader;
  /** When a server's Retry-After ends; null when none holds. */
  retryAfter: () => number | null;
}

/**
 * Presence reports (issue 31): a device with nothing to upload (parked, stopped, without fixes)
 * would be silent, and a server could not tell it from a lost one. Once no upload has happened for
 * http.presenceInterval, one request with no records carries the health report. It is an automatic
 * upload: autoSync, a Retry-After and the Wi-Fi policy hold it like any other.
 */
export class PresenceReports {
  private readonly timer: OneShotTimer;
  /** When the last upload request was answered or failed. */
  private lastContact: number;
  private closed = false;

  constructor(private readonly deps: PresenceDeps) {
    // Upkeep: it never keeps a process alive by itself.
    this.timer = new OneShotTimer(deps.clock, { background: true });
    this.lastContact = deps.clock.now();
  }

  /** An upload request was answered or failed: the next report is due an interval from now. */
  contact(): void {
    this.lastContact = this.deps.clock.now();
  }

  /** (Re)arms the timer for when the next report is due; the timer checks and waits for the rest. */
  schedule(): void {
    const interval = this.deps.config().http.presenceInterval * 1000;
    if (interval <= 0 || this.closed) return this.timer.clear();
    const due = Math.max(0, this.lastContact + interval - this.deps.clock.now());
    this.timer.schedule(due, () => {
      const quiet = this.deps.clock.now() - this.lastContact >= interval;
      void (quiet ? this.send() : Promise.resolve()).finally(() => {
        // Nothing could be sent (a hold): the next try is a whole interval later, not at once.
        if (this.deps.clock.now() - this.lastContact >= interval) this.lastContact = this.deps.clock.now();
        this.schedule();
      });
    });
  }

  close(): void {
    this.closed = true;
    this.timer.clear();
  }

  /**
   * Sends one when an automatic upload may go now (autoSync, no Retry-After, a network, Wi-Fi when
   * only Wi-Fi will do), this instance leads, no upload runs, and the server reads health reports:
   * to any other server an upload of nothing says nothing.
   */
  private async send(): Promise<void> {
    const { http } = this.deps.config();
    if (!http.url || !(await this.deps.health?.reads(http.url))) return;
    // Asked after the (kv) read: an upload may have started meanwhile.
    if (this.closed || !http.autoSync || !this.deps.gate.open || this.deps.retryAfter() !== null) return;
    if (this.deps.uploader.busy) return;
    const network = this.deps.network.current();
    if (network === 'none' || (http.disableAutoSyncOnCellular && network === 'cellular')) return;
    this.deps.logger.debug('HTTP', 'presence report: no upload for http.presenceInterval');
    await this.deps.uploader.presence();
  }
}
