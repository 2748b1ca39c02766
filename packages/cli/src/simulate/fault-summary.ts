import { formatTable } from '../table.js';
import type { ExplainedSilence, NamedHealth } from './admin-api.js';
import { FAULTS, type Fault } from './faults.js';

/**
 * Faults that cut a device off (named from its last report, inferred), and that it comes back
 * from at the end of a run: the network returns, a killed app is started again.
 */
export const COMES_BACK: ReadonlySet<Fault> = new Set(['no-network', 'wifi-only-cellular', 'killed']);

export type Verdict = 'named' | 'not named' | 'wrong, certain' | 'control';

/** One device of the fault summary: the class injected and what the service named. */
export interface FaultRow {
  device: string;
  injected: Fault | null;
  expected: string | null;
  state: string | null;
  cause: string | null;
  inferred: boolean | null;
  verdict: Verdict;
  /** For a device that came back: the silent period the service explained, for certain. */
  explained: string | null;
}

export interface FaultSummary {
  rows: FaultRow[];
  /** Faulted devices, and those named with the injected class's cause. */
  faulted: number;
  named: number;
  /** Devices named a wrong cause with certainty (inferred: false): must be 0. */
  wrongCertain: number;
  /** Devices that came back, and those whose silent period was explained for certain. */
  returned: number;
  explained: number;
}

/** The verdict on each device, from the classes injected and the service's answers. Pure. */
export function summarizeFaults(
  devices: readonly string[],
  injected: ReadonlyMap<string, Fault>,
  named: ReadonlyMap<string, NamedHealth>,
  silences: ReadonlyMap<string, ExplainedSilence | null>,
): FaultSummary {
  const rows: FaultRow[] = [];
  for (const device of devices) {
    const fault = injected.get(device) ?? null;
    const got = named.get(device);
    const expected = fault === null ? null : FAULTS[fault].cause;
    let verdict: Verdict = 'control';
    if (expected !== null) {
      if (got?.cause === expected) verdict = 'named';
      else if (got && !got.inferred) verdict = 'wrong, certain';
      else verdict = 'not named';
    }
    const silence = silences.get(device) ?? null;
    rows.push({
      device,
      injected: fault,
      expected,
      state: got?.state ?? null,
      cause: got?.cause ?? null,
      inferred: got?.inferred ?? null,
      verdict,
      explained: silence && !silence.inferred ? `${silence.cause}, ${silence.silentFrom} to ${silence.silentTo}` : null,
    });
  }
  const faulted = rows.filter((r) => r.injected !== null);
  const returned = faulted.filter((r) => silences.has(r.device));
  return {
    rows,
    faulted: faulted.length,
    named: faulted.filter((r) => r.verdict === 'named').length,
    wrongCertain: faulted.filter((r) => r.verdict === 'wrong, certain').length,
    returned: returned.length,
    explained: returned.filter((r) => r.explained !== null).length,
  };
}

/** Whether the run met the bar: 95% named, none wrong with certainty, every return explained. */
export const faultsPassed = (s: FaultSummary): boolean =>
  s.faulted > 0 && s.named >= 0.95 * s.faulted && s.wrongCertain === 0 && s.explained === s.returned;

/** The table and the count lines. */
export function renderFaultSummary(s: FaultSummary): string {
  const table = formatTable(
    [
      'device',
      'injected',
      'expected cause',
      'named by the server',
      'certainty',
      'verdict',
      'silence explained on return',
    ],
    s.rows.map((r) => [
      r.device,
      r.injected ?? '-',
      r.expected ?? '-',
      r.state === null ? 'not listed' : `${r.state}/${r.cause}`,
      r.inferred === null ? '-' : r.inferred ? 'likely' : 'certain',
      r.verdict,
      r.explained ?? (s.rows.length && r.injected && COMES_BACK.has(r.injected) ? 'no' : '-'),
    ]),
  );
  return (
    table +
    `named ${s.named} of ${s.faulted}, wrong with certainty ${s.wrongCertain}` +
    (s.returned > 0 ? `; silent period explained for ${s.explained} of ${s.returned} back` : '') +
    '\n'
  );
}
