import { EventEmitter } from 'node:events';

/** A position stored by this process, pushed to dashboards over server-sent events. */
export interface PositionEvent {
  deviceId: string;
  stored: number;
  latitude: number;
  longitude: number;
  timestamp: string;
}

export class LiveEvents extends EventEmitter<{ position: [PositionEvent] }> {
  get watched(): boolean {
    return this.listenerCount('position') > 0;
  }
}
