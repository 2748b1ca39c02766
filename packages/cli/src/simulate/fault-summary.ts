import { formatTable } from '../table.js';
import { countScore, explainedRight, scorePassed, type DeviceScore, type ScoreCounts } from './fault-score.js';
import { FAULT_NAMES, faultClass } from './faults.js';

/** What `waypost simulate --faults` prints (and --json writes): the service's answers against the truth. */
export interface FaultSummary {
  /** How long after its injection a heard device's cause had to be named (ms). */
  boundMs: number;
  looks: number;
  devices: DeviceScore[];
  counts: ScoreCounts;
  passed: boolean;
}

export function summarizeFaults(devices: DeviceScore[], looks: number, boundMs: number): FaultSummary {
  const counts = countScore(devices, boundMs);
  return { boundMs, looks, devices, counts, passed: scorePassed(counts) };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

function verdict(r: DeviceScore, boundMs: number): string {
  if (r.wrongCertain.length > 0) return 'wrong, certain';
  if (r.fault === null) return 'control';
  if (r.heard) {
    if (r.namedAfterMs === null) return 'not named';
    return r.namedAfterMs <= boundMs ? `named in ${seconds(r.namedAfterMs)}` : `late (${seconds(r.namedAfterMs)})`;
  }
  if (explainedRight(r)) return r.likely === null ? 'explained (no likely cause)' : 'explained';
  return r.explained === null ? 'not explained' : 'wrongly explained';
}

const answer = (r: DeviceScore) =>
  r.last === null ? 'not listed' : `${r.last.state}/${r.last.cause} (${r.last.inferred ? 'likely' : 'certain'})`;

/** The per-device table, the per-class table and the count lines. */
export function renderFaultSummary(s: FaultSummary): string {
  const devices = formatTable(
    ['device', 'injected', 'where', 'truth', 'last named by the server', 'likely while silent', 'on return', 'verdict'],
    s.devices.map((r) => [
      r.device,
      r.fault ?? '-',
      r.fault === null ? '-' : faultClass(r.fault).place,
      r.truth ?? '-',
      answer(r),
      r.heard ? '-' : (r.likely ?? 'none'),
      r.heard ? '-' : r.explained ? `${r.explained.cause} (${r.explained.inferred ? 'likely' : 'certain'})` : 'none',
      verdict(r, s.boundMs),
    ]),
  );
  const classes = formatTable(
    ['class', 'devices', 'right', 'wrong, certain', 'what the server got wrong'],
    FAULT_NAMES.flatMap((fault) => {
      const rows = s.devices.filter((r) => r.fault === fault);
      if (rows.length === 0) return [];
      const right = rows.filter((r) =>
        r.heard ? r.namedAfterMs !== null && r.namedAfterMs <= s.boundMs : explainedRight(r),
      );
      const wrong = rows.flatMap((r) =>
        r.wrongCertain.length > 0
          ? r.wrongCertain
          : (r.heard ? right.includes(r) : explainedRight(r))
            ? []
            : [r.heard ? `named ${answer(r)}` : `return: ${r.explained?.cause ?? 'not explained'}`],
      );
      return [
        [
          fault,
          String(rows.length),
          String(right.length),
          String(rows.filter((r) => r.wrongCertain.length > 0).length),
          [...new Set(wrong)].join('; ').slice(0, 200) || '-',
        ],
      ];
    }),
  );
  const c = s.counts;
  return (
    devices +
    '\n' +
    classes +
    `heard: named ${c.namedInTime} of ${c.heard} within ${seconds(s.boundMs)}; ` +
    `cut off: likely cause while silent for ${c.likely} of ${c.cutOff} (the truth for ${c.likelyRight}), ` +
    `explained for certain on return ${c.explained} of ${c.cutOff}; ` +
    `wrong with certainty ${c.wrongCertain} (${s.looks} looks and every device's history)\n`
  );
}
