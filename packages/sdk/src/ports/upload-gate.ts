import type { Location } from '../records/location.js';

/**
 * Whether this instance uploads. Where several instances share one queue (the tabs of an origin,
 * and its service worker), one leads the uploads and the others only record into the queue. The
 * engine reads the gate: automatic uploads run only while it is open; a record queued while it is
 * closed is announced (queuedHere) for the leader; when it opens, and when another instance queued
 * records, the engine evaluates an automatic upload. Leadership itself (who leads, releasing a dead
 * leader's record locks before leading) is the adapter's.
 */
export interface UploadGate {
  /** True while this instance leads the uploads. */
  readonly open: boolean;
  /** Called each time the gate opens. Returns an unsubscribe function. */
  onOpen(listener: () => void): () => void;
  /** Called when another instance queued records. Returns an unsubscribe function. */
  onQueuedElsewhere(listener: () => void): () => void;
  /** A record was queued here while the gate is closed: the leader has work. */
  queuedHere(): void;
  /** sync() while the gate is closed: run by the leader (its delivered records), or null to run here. */
  forwardSync(): Promise<Location[] | null>;
}

/** One instance owns the queue (Node, a single page): always open. */
export const OPEN_GATE: UploadGate = {
  open: true,
  onOpen: () => () => {},
  onQueuedElsewhere: () => () => {},
  queuedHere: () => {},
  forwardSync: async () => null,
};
