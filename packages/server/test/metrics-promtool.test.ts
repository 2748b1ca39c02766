// /metrics as Prometheus reads it: Debian's promtool (package prometheus, installed by
// scripts/run-tests.mjs) lints the exposition; the process, latency and sink families are there.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

/** What Prometheus is given (docs/deploy/prometheus.yml's credentials_file). */
const METRICS_TOKEN = 'metrics-token-for-prometheus-41';

describe('/metrics read by promtool', () => {
  let server: TestServer;
  let refusing: Server;
  beforeAll(async () => {
    // A webhook receiver that answers 500: its sink's failures and backlog show in /metrics.
    refusing = createServer((_request, response) => response.writeHead(500).end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/hook`;
    server = await startTestServer(backends[0]!, {
      webhooks: [hook],
      sinkEvents: ['location'],
      deliveryPollMs: 50,
      metricsToken: METRICS_TOKEN,
    });
    expect((await server.post('/locations', { location: [record('m1')], device_id: 'metered' })).status).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
    await new Promise((resolve) => refusing.close(resolve));
  });

  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('passes promtool check metrics without a lint', async () => {
    const text = await scrape();
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 20_000 });
    expect(check.error, 'promtool could not run').toBeUndefined();
    expect([check.status, `${check.stdout}${check.stderr}`]).toEqual([0, '']);
  });

  it('has the process, latency, ledger and sink families, and keeps the existing names', async () => {
    // The failing webhook is retried with backoff: wait (bounded) until a failure is counted.
    let text = '';
    for (let i = 0; i < 100 && !/^waypost_sink_delivery_failures_total\{sink="[^"]+"\} [1-9]/m.test(text); i++) {
      text = await scrape();
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(text, 'no delivery failure of the refusing webhook counted within 5 s').toMatch(
      /^waypost_sink_delivery_failures_total\{sink="[^"]+"\} [1-9]/m,
    );
    expect(text).toMatch(/^waypost_sink_pending_events\{sink="[^"]+",kind="webhook"\} [1-9]/m);
    expect(text).toMatch(/^waypost_sink_dead_events\{sink="[^"]+",kind="webhook"\} 0$/m);
    for (const family of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toMatch(new RegExp(`^${family} `, 'm'));
    }
    expect(text).toMatch(
      /^waypost_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/locations",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /^waypost_http_request_duration_seconds_count\{method="POST",route="\/locations",status="200"\} 1$/m,
    );
    for (const name of ['waypost_records_stored_total', 'waypost_ledger_devices', 'waypost_ledger_missing']) {
      expect(text).toMatch(new RegExp(`^${name} \\d+$`, 'm'));
    }
    expect(text).toMatch(/^waypost_records_stored_total 1$/m);
  });

  it('counts devices by state and by cause (every cause listed, certain and likely)', async () => {
    // A device refused by the server (a body nested deeper than its limit): failing, certain.
    expect((await server.post('/locations', { location: [record('r1')], device_id: 'refused' })).status).toBe(200);
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 40; i++) deep = { inner: deep };
    const refused = await server.post(
      '/locations',
      { location: [{ ...record('r2'), extras: deep }] },
      {
        'x-device-id': 'refused',
      },
    );
    expect(refused.body.code).toBe('TOO_DEEP');
    const text = await scrape();
    expect(text).toMatch(/^waypost_devices_by_cause\{state="live",cause="reporting",inferred="true"\} 1$/m);
    expect(text).toMatch(/^waypost_devices_by_cause\{state="failing",cause="records-refused",inferred="false"\} 1$/m);
    expect(text).toMatch(/^waypost_devices_by_cause\{state="stopped",cause="battery-dead",inferred="true"\} 0$/m);
    // Bounded: 21 causes, each certain and likely, whatever the fleet.
    expect(text.match(/^waypost_devices_by_cause\{/gm)).toHaveLength(42);
    expect(text).toMatch(/^waypost_devices\{state="failing"\} 1$/m);
  });
});
