import type { ParseAdmission } from './ingest/parse-admission.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Queryable } from './db/database.js';
import { outboxCounts } from './fleet/outbox-store.js';
import { listSinks } from './fleet/sinks-store.js';
import type { FleetLedger } from './ledger/fleet-ledger.js';
import type { Metrics } from './metrics.js';

/**
 * The process's own metrics (CPU, memory, event loop lag, GC, handles: prom-client's defaults),
 * collected once per process however many servers it runs (tests run many): they describe the
 * process, not one server.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    // Gauges named like counters, which promtool's lint refuses; nodejs_active_handles and
    // nodejs_active_requests (by type) and nodejs_active_resources hold the same numbers.
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ]) {
      processRegistry.removeSingleMetric(name);
    }
  }
  return processRegistry;
}

/** The fleet's devices by health state, and by cause (every cause listed: a bounded label set). */
export interface HealthCounts {
  states: Record<string, number>;
  causes: { state: string; cause: string; inferred: boolean; count: number }[];
}

/** Request latency buckets in seconds: uploads take milliseconds, exports may take seconds. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A counter whose value is read from the plain counters at each scrape. */
function mirrored(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function labelled(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Iterable<[string | number, number]>,
): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, count] of read()) this.labels(String(value)).inc(count);
    },
  });
}

export interface Exposition {
  /** Times one answered request (route pattern, not the path: bounded label values). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  contentType: string;
  /** The Prometheus text of this server and its process. */
  render(): Promise<string>;
}

export function createExposition(
  metrics: Metrics,
  db: Queryable,
  ledger: FleetLedger,
  /** The fleet's devices by health state (docs/device-health.md), read at each scrape. */
  healthCounts: () => Promise<HealthCounts> = async () => ({ states: {}, causes: [] }),
  /** Upload bodies parsed at once and waiting to be (ingest/parse-admission.ts). */
  admission: Pick<ParseAdmission, 'waitingCount' | 'inUseBytes'> = { waitingCount: 0, inUseBytes: 0 },
): Exposition {
  const registry = new Registry();
  new Gauge({
    name: 'waypost_uploads_waiting_to_parse',
    help: 'Upload bodies read in full and waiting for the parse budget (uploads in flight beyond what commits take).',
    registers: [registry],
    collect() {
      this.set(admission.waitingCount);
    },
  });
  new Gauge({
    name: 'waypost_upload_parse_bytes',
    help: 'Bytes of upload bodies parsed and not yet answered, at most the parse budget (one larger body alone).',
    registers: [registry],
    collect() {
      this.set(admission.inUseBytes);
    },
  });
  mirrored(
    registry,
    'waypost_records_stored_total',
    'Location records stored (first time seen).',
    () => metrics.stored,
  );
  mirrored(
    registry,
    'waypost_records_duplicate_total',
    'Location records received again and not stored.',
    () => metrics.duplicates,
  );
  mirrored(
    registry,
    'waypost_records_quarantined_total',
    'Location records kept in quarantine (the rest of their request stored).',
    () => metrics.quarantined,
  );
  mirrored(
    registry,
    'waypost_records_rejected_total',
    'Location records in rejected requests.',
    () => metrics.rejected,
  );
  labelled(
    registry,
    'waypost_records_dropped_total',
    'Records devices reported dropped undelivered (ttl, cap, destroyed).',
    'reason',
    () => ['ttl', 'cap', 'destroyed'].map((reason) => [reason, metrics.droppedReported.get(reason) ?? 0]),
  );
  labelled(registry, 'waypost_http_requests_total', 'HTTP requests answered, by status.', 'status', () =>
    [...metrics.requestsByStatus].sort((a, b) => a[0] - b[0]),
  );
  labelled(registry, 'waypost_rate_limited_total', 'Requests refused with 429, by what was limited.', 'scope', () =>
    ['device', 'address', 'login'].map((scope) => [scope, metrics.rateLimited.get(scope) ?? 0]),
  );
  labelled(
    registry,
    'waypost_uploads_refused_credentials_total',
    'Uploads refused for their device credential: a revoked or unknown device key, or none for a device that holds one.',
    'code',
    () =>
      ['CREDENTIAL_REQUIRED', 'KEY_REVOKED', 'WRONG_KEY'].map((code) => [
        code,
        metrics.refusedCredentials.get(code) ?? 0,
      ]),
  );
  labelled(
    registry,
    'waypost_sink_delivered_total',
    'Fleet events this process delivered, by sink.',
    'sink',
    () => metrics.delivered,
  );
  labelled(
    registry,
    'waypost_sink_delivery_failures_total',
    'Fleet event deliveries that failed (retried later or dead-lettered), by sink.',
    'sink',
    () => metrics.deliveryFailures,
  );
  labelled(
    registry,
    'waypost_sink_resent_in_doubt_total',
    'Fleet events this process sent again although an earlier attempt had no recorded outcome, by sink.',
    'sink',
    () => metrics.resentInDoubt,
  );
  const latency = new Histogram({
    name: 'waypost_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // Gauges read from the database at each scrape (every process sees the fleet's numbers).
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const ledgerDevices = gauge(
    'waypost_ledger_devices',
    'Devices whose delivery ledger is known (numbered records seen).',
  );
  const ledgerIncomplete = gauge('waypost_ledger_devices_incomplete', 'Devices with sequence numbers missing.');
  const ledgerMissing = gauge(
    'waypost_ledger_missing',
    'Sequence numbers neither received, quarantined nor reported dropped, fleet-wide.',
  );
  const pending = gauge('waypost_sink_pending_events', 'Fleet events waiting for delivery (backlog), by sink.', [
    'sink',
    'kind',
  ]);
  const dead = gauge('waypost_sink_dead_events', 'Fleet events dead-lettered (replayable), by sink.', ['sink', 'kind']);
  const byState = gauge(
    'waypost_devices',
    'Devices (not deleted) by the health state the server names (docs/device-health.md).',
    ['state'],
  );
  const byCause = gauge(
    'waypost_devices_by_cause',
    'Devices (not deleted) by the cause the server names, with its state; inferred="true" when likely, not said (docs/device-health.md).',
    ['state', 'cause', 'inferred'],
  );
  const refresh = async () => {
    const health = await healthCounts();
    for (const [state, count] of Object.entries(health.states)) byState.labels(state).set(count);
    for (const { state, cause, inferred, count } of health.causes) {
      byCause.labels(state, cause, String(inferred)).set(count);
    }
    const totals = await ledger.totals();
    ledgerDevices.set(totals.devices);
    ledgerIncomplete.set(totals.incomplete);
    ledgerMissing.set(totals.missing);
    const [sinks, counts] = await Promise.all([listSinks(db), outboxCounts(db)]);
    pending.reset();
    dead.reset();
    for (const sink of sinks) {
      const backlog = counts.get(sink.id);
      pending.labels(sink.id, sink.kind).set(backlog?.pending ?? 0);
      dead.labels(sink.id, sink.kind).set(backlog?.dead ?? 0);
    }
  };
  return {
    observeRequest(method, route, status, seconds) {
      latency.labels(method, route, String(status)).observe(seconds);
    },
    contentType: registry.contentType,
    async render() {
      await refresh();
      return Registry.merge([processMetrics(), registry]).metrics();
    },
  };
}
