/** What one delivery round did for one sink. */
export interface RoundReport {
  sinkId: string;
  /** Events the sink took (they have left the outbox). */
  delivered: number;
  /** Events it did not take: retried later, or dead-lettered (`dead` of them). */
  failed: number;
  dead: number;
  /** The last failure's message (also the sink's `lastError`). */
  error: string | null;
  /** Events sent again whose earlier attempt's outcome was never recorded (the sink may have had them). */
  inDoubt?: number;
}

/**
 * What fleet delivery tells the server's log, so that a failing sink, or a change made through
 * another process, shows there and not only in the admin API.
 */
export interface FleetLog {
  /** A delivery round broke (a database hiccup): tried again at the next poll. */
  error(error: unknown): void;
  round(report: RoundReport): void;
  /** The sinks and geofences this process delivers for changed (here or through another process). */
  configChanged(sinks: number, geofences: number): void;
  /** A sink deleted through another process: what was left in the outbox for it is removed. */
  sinkForgotten(sinkId: string, removed: number): void;
  /**
   * An event sent again although an earlier attempt's outcome was never recorded (its process died,
   * or lost its network or the database, with the request out): the sink may now have it twice.
   */
  resentInDoubt(sinkId: string, eventId: string, deviceId: string): void;
}

/** Log codes of fleet delivery. */
export const SINK_DELIVERED = 'SINK_DELIVERED';
export const SINK_DELIVERY_FAILED = 'SINK_DELIVERY_FAILED';
export const SINK_DEAD_LETTERED = 'SINK_DEAD_LETTERED';
export const SINK_FORGOTTEN = 'SINK_FORGOTTEN';
export const FLEET_CONFIG_CHANGED = 'FLEET_CONFIG_CHANGED';
export const SINK_RESENT_IN_DOUBT = 'SINK_RESENT_IN_DOUBT';

interface Logger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * The lines of fleet delivery in a pino-style log: deliveries and changes at info, failures and
 * dead letters as warnings, each with its code and the sink's id (never its URL, which may carry
 * a credential).
 */
export function fleetLogTo(log: Logger): FleetLog {
  return {
    error: (error) => log.error({ err: error }, 'fleet event delivery failed'),
    round({ sinkId: sink, delivered, failed, dead, error }) {
      if (delivered > 0) log.info({ code: SINK_DELIVERED, sink, delivered }, `fleet events delivered to sink ${sink}`);
      if (failed > dead) {
        log.warn(
          { code: SINK_DELIVERY_FAILED, sink, failed: failed - dead, error },
          `fleet event delivery to sink ${sink} failed (${error}); retried with backoff`,
        );
      }
      if (dead > 0) {
        log.warn(
          { code: SINK_DEAD_LETTERED, sink, dead, error },
          `${dead} fleet event(s) for sink ${sink} dead-lettered (${error}); replay with POST /api/sinks/${sink}/replay`,
        );
      }
    },
    configChanged: (sinks, geofences) =>
      log.info(
        { code: FLEET_CONFIG_CHANGED, sinks, geofences },
        `fleet configuration: ${sinks} sink(s), ${geofences} geofence(s)`,
      ),
    sinkForgotten: (sink, removed) =>
      log.info(
        { code: SINK_FORGOTTEN, sink, removed },
        `sink ${sink} was deleted: ${removed} event(s) left in the outbox for it removed`,
      ),
    resentInDoubt: (sink, event, device) =>
      log.warn(
        { code: SINK_RESENT_IN_DOUBT, sink, event, device },
        `fleet event ${event} sent to sink ${sink} again: an earlier attempt's outcome was never recorded (the receiver may have it twice under this id)`,
      ),
  };
}

/** Says nothing (until the server's log exists, and in tests of delivery alone). */
export const SILENT_FLEET_LOG: FleetLog = {
  error: () => undefined,
  round: () => undefined,
  configChanged: () => undefined,
  sinkForgotten: () => undefined,
  resentInDoubt: () => undefined,
};
