import { EventEmitter } from 'node:events';

/** A position stored by this process, pushed to dashboards over server-sent events. */
export interface PositionEvent {
  deviceId: string;
  /** Records this event tells of: those the commit stored (more on a catch-up; 0 on a replay). */
  stored: number;
  /** The device's records once the commit is in (per device, events only move it forward). */
  records: number;
  latitude: number;
  longitude: number;
  timestamp: string;
  /** Told late: commits this process's feed missed (NATS dropped them, their process died first). */
  catchUp?: true;
  /** Told on a reconnect (Last-Event-ID): the device's count and position as the database has them. */
  replay?: true;
}

export class LiveEvents extends EventEmitter<{ position: [PositionEvent] }> {
  get watched(): boolean {
    return this.listenerCount('position') > 0;
  }
}
