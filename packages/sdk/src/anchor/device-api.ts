import type { SdkParts } from '../sdk/compose.js';
import type { TransistorAuthorizationToken } from '../config/input-types.js';
import type { DeviceInfo } from '../device.js';
import type { Subscription } from '../events/emitter.js';
import type { LocationInput } from '../records/location.js';
import { AnchorEvents } from './anchor-events.js';
import { toAnchorLocation, type AnchorLocation } from './anchor-location.js';
import type { CurrentPositionRequest, LocationErrorCode, WatchPositionRequest } from '../tracking/position-requests.js';
import { destroyToken, findOrCreateToken } from '../auth/transistor-registration.js';

/** The anchor's DeviceInfo, plus the uuid Waypost identifies the device by. */
export type AnchorDeviceInfo = DeviceInfo & { framework: string };

/**
 * The anchor's device-side API: positions from the location provider, the odometer, the device's
 * description and registration with a server speaking the anchor demo server's device API.
 */
export abstract class AnchorDeviceApi extends AnchorEvents {
  protected abstract readonly parts: SdkParts;

  async getDeviceInfo(): Promise<AnchorDeviceInfo> {
    return { ...this.parts.device, framework: 'waypost' };
  }

  /** One fix from the location provider; stored unless `persist: false`. */
  async getCurrentPosition(options: CurrentPositionRequest = {}): Promise<AnchorLocation> {
    this.parts.lifecycle.assertOpen();
    const fix = await this.parts.positions.current(options);
    return this.anchorLocation(fix, options.persist !== false, options.extras);
  }

  /** Every fix from the location provider, at most one per `interval` ms; stored when `persist`. */
  watchPosition(
    options: WatchPositionRequest,
    onLocation: (location: AnchorLocation) => void,
    onError?: (code: LocationErrorCode) => void,
  ): Subscription {
    this.parts.lifecycle.assertOpen();
    return this.parts.positions.watch(
      options ?? {},
      (fix) =>
        void this.anchorLocation(fix, options?.persist === true, options?.extras).then(onLocation, (error: unknown) =>
          this.parts.log.warn('Location', `watchPosition: ${(error as Error).message}`),
        ),
      (code) => onError?.(code),
    );
  }

  private async anchorLocation(fix: LocationInput, persist: boolean, extras?: object): Promise<AnchorLocation> {
    const input = extras ? { ...fix, extras: { ...fix.extras, ...(extras as LocationInput['extras']) } } : fix;
    const location = persist ? await this.parts.tracker.insertLocation(input) : this.parts.tracker.locationFrom(input);
    return toAnchorLocation(location, this.parts.clock.now());
  }

  async getOdometer(): Promise<number> {
    return this.parts.tracker.state.odometer;
  }

  /**
   * Sets the odometer (metres) and resolves with a location carrying it, as the anchor does: the
   * last known one; else a current position from the location provider; else, when there is no
   * provider or it finds no fix, a location without a position (latitude and longitude NaN,
   * accuracy -1). The odometer is set in every case: setting it never depends on a GPS.
   */
  async setOdometer(value: number): Promise<AnchorLocation> {
    this.parts.lifecycle.assertOpen();
    await this.parts.tracker.setOdometer(value);
    const now = this.parts.clock.now();
    const known = this.parts.tracker.knownLocation();
    if (known) return toAnchorLocation(known, now);
    const fix = await this.parts.positions.current({ persist: false }).catch(() => null);
    if (fix) return toAnchorLocation(this.parts.tracker.locationFrom(fix), now);
    const placeholder = this.parts.tracker.locationFrom({ latitude: 0, longitude: 0 });
    const unknown = { latitude: NaN, longitude: NaN, accuracy: -1, speed: -1, heading: -1, altitude: -1 };
    return toAnchorLocation({ ...placeholder, coords: { ...placeholder.coords, ...unknown } }, now);
  }

  resetOdometer(): Promise<AnchorLocation> {
    return this.setOdometer(0);
  }

  // ---------------------------------------------------------------- the anchor demo server's registration

  /** Registers this device with a server speaking the anchor demo server's device API. */
  async findOrCreateTransistorAuthorizationToken(
    orgname: string,
    username: string,
    url?: string,
  ): Promise<TransistorAuthorizationToken> {
    this.parts.lifecycle.assertOpen();
    const { deps, device, log } = this.parts;
    return findOrCreateToken(
      {
        transport: deps.transport,
        kv: deps.store.kv,
        device,
        logger: log,
        current: () => {
          const { http, authorization } = this.parts.session.config;
          return { url: http.url, ...authorization };
        },
      },
      orgname,
      username,
      url,
    );
  }

  async destroyTransistorAuthorizationToken(url?: string): Promise<void> {
    await destroyToken(this.parts.deps.store.kv, url);
  }
}
