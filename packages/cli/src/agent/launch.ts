/**
 * Whether the agent tracks when it starts. Pure: the boot ids and the saved state are arguments.
 *
 * - Started within the same boot (by an operator, or by systemd after a crash): it tracks; that
 *   is what the service is for.
 * - Started after a reboot: it resumes only with app.startOnBoot, and only when tracking was on
 *   when the host went down. A clean shutdown SIGTERMs the agent, which then stops tracking when
 *   app.stopOnTerminate is true (the default), so resuming at boot takes stopOnTerminate: false
 *   as well, exactly as with the anchor SDK.
 * - Otherwise it stays stopped but keeps running: the queue still uploads and configuration
 *   changes are still picked up.
 */
export type LaunchDecision = { track: true; reason: string } | { track: false; reason: string };

export interface LaunchFacts {
  /** The host's boot id now, and the one the agent saw last time; undefined when unknown. */
  bootId: string | undefined;
  lastBootId: string | undefined;
  /** Whether tracking was enabled when the agent (or the host) last went down. */
  wasTracking: boolean;
  startOnBoot: boolean;
}

export function decideLaunch(facts: LaunchFacts): LaunchDecision {
  const rebooted = facts.bootId !== undefined && facts.lastBootId !== undefined && facts.bootId !== facts.lastBootId;
  if (!rebooted) return { track: true, reason: 'started' };
  if (!facts.startOnBoot) return { track: false, reason: 'not tracking after a reboot: app.startOnBoot is false' };
  if (!facts.wasTracking) {
    return {
      track: false,
      reason:
        'not tracking after a reboot: tracking was stopped when the agent last ended (app.stopOnTerminate is true, or stop() was called)',
    };
  }
  return { track: true, reason: 'resuming tracking after a reboot (app.startOnBoot)' };
}
