// The load of the ingest benches, in a process of its own (so that the clients do not share a
// server's event loop): CLIENTS devices, each on its own keep-alive connection, uploading their
// batches one after the other as the SDK does. With several URLs (several server processes on one
// database), device i talks to urls[i % urls.length].
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

export const deviceOf = (client) => `bench-${client}`;

export const record = (i, run) => ({
  uuid: `${run}-${i}`,
  // The delivery ledger's per-device sequence (issue 19): unique per device, as the SDK sends it.
  sequence: i + 1,
  timestamp: new Date(Date.UTC(2024, 4, 1) + i * 1000).toISOString(),
  is_moving: true,
  odometer: i * 10,
  coords: {
    latitude: 48 + (i % 1000) / 10_000,
    longitude: 11 + (i % 1000) / 10_000,
    accuracy: 5,
    speed: 1.2,
    heading: 90,
    altitude: 520,
  },
  activity: { type: 'walking', confidence: 100 },
  battery: { level: 0.8, is_charging: false },
  extras: {},
});

/**
 * Each client's (device's) batches: records dealt round-robin in batches, so all devices get work.
 * `first` numbers them on from an earlier load of the same run (a warm-up on the same database).
 */
export function batchesOf(run, records, size, clients, first = 0) {
  const perClient = Array.from({ length: clients }, () => []);
  let n = 0;
  for (let i = 0; i < records; i += size) {
    const batch = Array.from({ length: Math.min(size, records - i) }, (_, j) => record(first + i + j, run));
    perClient[n++ % clients].push(batch);
  }
  return perClient;
}

// ---- the load process -------------------------------------------------------------------------

function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends every client's batches over its own keep-alive connection; reports elapsed seconds, stored,
 * and the CPU µs this process spent sending them (on a two-core machine the load's CPU and the
 * server's share the cores: bench/ingest-cost.mjs prints both). With `ratePerSecond` the fleet
 * sends at that rate (each batch at its due time, as a fleet of devices does) instead of as fast
 * as the server answers.
 */
async function runLoad({ urls, run, records, batch, clients, ratePerSecond, first = 0 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const bodies = batchesOf(run, records, batch, clients, first).map((batches, client) =>
    batches.map((b) => Buffer.from(JSON.stringify({ location: batch === 1 ? b[0] : b, device_id: deviceOf(client) }))),
  );
  let stored = 0;
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(
    bodies.map(async (list, client) => {
      const url = urls[client % urls.length];
      for (const [k, body] of list.entries()) {
        if (ratePerSecond) {
          const due = ((k * clients + client) * batch * 1000) / ratePerSecond;
          const wait = due - Number(process.hrtime.bigint() - started) / 1e6;
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        const { status, text } = await post(agent, `${url}/locations`, body);
        if (status !== 200) throw new Error(`server answered ${status}: ${text}`);
        // The anchor answers {success:true} without a count; its rows are counted from its database.
        stored += JSON.parse(text).stored ?? 0;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { seconds, stored, cpuUs: cpu.user + cpu.system };
}

/** Runs `{ urls, run, records, batch, clients }` in a child process: `{ seconds, stored, cpuUs }`. */
export function loadFromChild(job) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--load'], { stdio: 'inherit' });
    child.once('message', (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply.result)));
    child.once('exit', (code) => code !== 0 && reject(new Error(`load process exited with ${code}`)));
    child.send(job);
  });
}

/**
 * loadFromChild against services that count what they store (not the anchor): the rate in
 * records/s and the load process's CPU µs per record; throws unless every record was stored.
 */
export async function storedRun({ urls, run, records, batch, clients, ratePerSecond, first }) {
  const { seconds, stored, cpuUs } = await loadFromChild({ urls, run, records, batch, clients, ratePerSecond, first });
  if (stored !== records) throw new Error(`server stored ${stored} of ${records} records`);
  return { rate: records / seconds, loadUs: cpuUs / records };
}

/** storedRun's rate alone (records/s). */
export const storedRate = async (job) => (await storedRun(job)).rate;

/**
 * The share of a timed load a freshly started server takes first, untimed (issue 43). A new server
 * (a new database, new threads, statements prepared on a new connection, empty caches) spends its
 * first second starting, which a server running for months paid once: the benches measure the steady
 * state, Waypost's and the floors' services alike.
 */
export const SERVER_WARM_UP_SHARE = 0.1;

/**
 * storedRun of `job` after the server's warm-up (SERVER_WARM_UP_SHARE of its records, untimed);
 * `between` runs after the warm-up (a counter read, a CPU sample). The timed load numbers its records
 * on from the warm-up's: the same devices, new uuids and sequences.
 */
export async function warmedRun(job, between = async () => {}) {
  const warm = Math.max(job.batch, Math.round((job.records * SERVER_WARM_UP_SHARE) / job.batch) * job.batch);
  await storedRun({ ...job, records: warm });
  await between();
  return storedRun({ ...job, first: warm });
}

if (process.argv[2] === '--load') {
  process.once('message', (job) => {
    runLoad(job).then(
      (result) => process.send({ result }, () => process.exit(0)),
      (error) => process.send({ error: error.message }, () => process.exit(1)),
    );
  });
}
