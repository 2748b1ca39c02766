import type { ConfigInput } from '../config/input-types.js';
import type { CommandHandlers } from './remote-controller.js';

/** The operations remote commands map onto (spec 4.2: each is "same as" the SDK's operation). */
export interface CommandTarget {
  start(): Promise<unknown>;
  stop(): Promise<unknown>;
  startGeofences(): Promise<unknown>;
  changePace(isMoving: boolean): Promise<unknown>;
  setConfig(config: ConfigInput): Promise<unknown>;
  addGeofence(geofence: unknown): Promise<unknown>;
  addGeofences(geofences: unknown): Promise<unknown>;
  removeGeofence(identifier: string): Promise<unknown>;
  removeGeofences(identifiers?: string[]): Promise<unknown>;
}

export interface LogTarget {
  upload(url: string): Promise<unknown>;
  destroy(): Promise<unknown>;
}

/** Where a server's request for receipted records goes (issue 46). */
export interface RepairTarget {
  requested(request: unknown): Promise<unknown>;
}

/** Arguments arrive already checked by the RemoteController (types and arity). */
export function commandHandlers(target: CommandTarget, log: LogTarget, receipts: RepairTarget): CommandHandlers {
  return {
    start: () => target.start(),
    stop: () => target.stop(),
    startGeofences: () => target.startGeofences(),
    changePace: ([isMoving]) => target.changePace(isMoving as boolean),
    setConfig: ([config]) => target.setConfig(config as ConfigInput),
    addGeofence: ([geofence]) => target.addGeofence(geofence),
    addGeofences: ([geofences]) => target.addGeofences(geofences),
    removeGeofence: ([identifier]) => target.removeGeofence(identifier as string),
    removeGeofences: ([identifiers]) => target.removeGeofences(identifiers as string[] | undefined),
    uploadLog: ([url]) => log.upload(url as string),
    destroyLog: () => log.destroy(),
    resendReceipted: ([request]) => receipts.requested(request),
  };
}
