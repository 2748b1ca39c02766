import {
  ANCHOR_ENUMS,
  ANCHOR_V4_CONSTANTS,
  type AnchorEnums,
  type AnchorV4Constants,
} from './anchor/anchor-constants.js';
import { anchorState, type State } from './anchor/anchor-state.js';
import { loadConfig } from './config/persisted-config.js';
import type { DeviceInfo } from './device.js';
import type { Emitter } from './events/emitter.js';
import type { SdkEvents } from './events/types.js';
import { closeGroup, type CloseMethods } from './facade/close-group.js';
import { configGroup, type ConfigMethods } from './facade/config-group.js';
import { deviceGroup, type DeviceMethods } from './facade/device-group.js';
import { eventGroup, type EventGroup } from './facade/event-group.js';
import { geofenceGroup, type GeofenceMethods } from './facade/geofence-group.js';
import { applyGuards, GUARD_TABLE } from './facade/guard-table.js';
import { loggerGroup, type AnchorLogger } from './facade/logger-group.js';
import { mergeGroups } from './facade/merge-groups.js';
import { queueGroup, type QueueMethods } from './facade/queue-group.js';
import { registrationGroup, type RegistrationMethods } from './facade/registration-group.js';
import { storeGroup, type StoreView } from './facade/store-group.js';
import { trackingGroup, type TrackingMethods } from './facade/tracking-group.js';
import type { SdkLogger } from './log/logger.js';
import { composeSdk, type BackgroundGeolocationDeps, type EngineParts } from './sdk/compose.js';
import { loadTrackingState } from './tracking/persisted-state.js';

export type { BackgroundGeolocationDeps } from './sdk/compose.js';
export type { DeviceInfo } from './device.js';
export type { LocationQuery } from './queue/queue-records.js';
export type { State } from './anchor/anchor-state.js';
export type { AnchorDeviceInfo } from './facade/device-group.js';

/**
 * The SDK: the anchor's API (signatures, results and event payloads as its types declare them)
 * over the engine composeSdk wires. A plain object whose methods are its own properties, closed
 * over the engine, so detached methods work (`const { getCount } = bg`). Waypost's richer results
 * stay reachable: `store.*` returns the stored record and removal counts, `config.current` the
 * resolved configuration.
 */
export interface BackgroundGeolocation
  extends
    ConfigMethods,
    TrackingMethods,
    QueueMethods,
    GeofenceMethods,
    DeviceMethods,
    RegistrationMethods,
    CloseMethods,
    EventGroup,
    AnchorEnums,
    AnchorV4Constants {
  /** Property style, with Waypost's richer results (the stored record, counts). */
  readonly store: StoreView;
  readonly logger: AnchorLogger;
  /** The engine's events, as it emits them (the `on*` methods hand over the anchor's payloads). */
  readonly events: Emitter<SdkEvents>;
  readonly log: SdkLogger;
  readonly device: DeviceInfo;
}

/** What the facade needs of the host beyond the engine. */
type FacadePorts = Pick<BackgroundGeolocationDeps, 'transport' | 'mail'> & {
  kv: BackgroundGeolocationDeps['store']['kv'];
};

/** The facade over one engine: each method group gets the parts it uses, then the guards apply. */
function assemble(engine: EngineParts, ports: FacadePorts): BackgroundGeolocation {
  const { session, lifecycle, tracker, records, scheduler, geofencing, positions, clock, log, device, events } = engine;
  const state = (): State =>
    anchorState(session.config, session.ignored, tracker.state, {
      authorizationStatus: engine.authorizer.status,
      didDeviceReboot: false,
      retryAfter: scheduler.retryAfter,
    });
  const facade: BackgroundGeolocation = mergeGroups(
    configGroup({ session, lifecycle, state }),
    trackingGroup({ lifecycle, tracker, state }),
    queueGroup({ records, tracker, scheduler, lifecycle, reregistration: engine.reregistration }),
    storeGroup({ records, tracker, scheduler, geofencing, receipts: engine.receipts }),
    geofenceGroup(geofencing),
    deviceGroup({ device, positions, tracker, clock, log }),
    registrationGroup({ transport: ports.transport, kv: ports.kv, device, log, session }),
    loggerGroup({ log, upload: (url, query) => engine.logUploader.upload(url, query), mail: ports.mail }),
    closeGroup({ lifecycle, positions, reregistration: engine.reregistration }),
    eventGroup(events, { now: () => clock.now(), knownLocation: () => tracker.knownLocation() }),
    { events, log, device },
    // The anchor's enums, read off the SDK object by its app code (LogLevel.Verbose, LOG_LEVEL_VERBOSE).
    ANCHOR_ENUMS,
    ANCHOR_V4_CONSTANTS,
  );
  applyGuards(facade, GUARD_TABLE, {
    open: () => lifecycle.assertOpen(),
    started: (operation) => lifecycle.assertStarted(operation),
  });
  return facade;
}

/**
 * Opens the SDK on a store: restores the saved configuration and state, releases the locks a
 * crash left behind, and applies retention. Queue reads work from here on, before ready().
 */
async function open(deps: BackgroundGeolocationDeps): Promise<BackgroundGeolocation> {
  const { stored, problem } = await loadConfig(deps.store.kv);
  const tracking = await loadTrackingState(deps.store.kv);
  const ports = { transport: deps.transport, kv: deps.store.kv, mail: deps.mail };
  const { engine, facade } = composeSdk(deps, stored, tracking, (parts) => assemble(parts, ports));
  await engine.lifecycle.initialize(problem);
  return facade;
}

/**
 * `BackgroundGeolocation.open(deps)`; the platforms' createBackgroundGeolocation() calls it. The
 * anchor's enums are here too, for code that reads them before it has an instance.
 */
export const BackgroundGeolocation = Object.freeze({ open, ...ANCHOR_ENUMS, ...ANCHOR_V4_CONSTANTS });
