// One ingest service in a process of its own, so that its CPU time is its own (bench/ingest-cost.mjs):
// Waypost from a built dist (WAYPOST_SERVER_DIST, default this checkout's; another checkout's dist
// makes an A/B comparison) or the minimal node:http service. Answers { url } once listening, { cpu }
// (process.cpuUsage, µs) when asked; profiles its CPU between { profile: 'start' } and
// { profile: FILE } (the V8 profiler through node:inspector, so that a warm-up is left out); exits
// on 'close' after closing the service.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startMinimalIngestServer } from './minimal-ingest-server.mjs';

const dir = mkdtempSync(join(tmpdir(), 'waypost-cost-'));
let server;
let session;

/** Starts the V8 sampling profiler (every 200 µs: enough samples for a per-stage split of a short run). */
async function profileStart() {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}

async function profileStop(file) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
}

async function start({ service, databaseUrl, schema, options }) {
  if (service === 'minimal')
    return databaseUrl
      ? startMinimalIngestServer({ postgres: databaseUrl, schema, poolSize: options.poolSize })
      : startMinimalIngestServer({ sqlite: join(dir, 'minimal.db') });
  const dist =
    process.env.WAYPOST_SERVER_DIST ?? new URL('../../packages/server/dist/index.js', import.meta.url).pathname;
  const { startServer } = await import(pathToFileURL(resolve(dist)).href);
  const storage = databaseUrl ? { databaseUrl, schema } : { database: join(dir, 'server.db') };
  return startServer({ port: 0, ...storage, ...options });
}

/**
 * The CPU time of the main thread alone (µs; null where /proc has no schedstat). process.cpuUsage()
 * adds the process's other threads: V8's compiler and GC helpers, Waypost's SQLite checkpoint thread.
 * On an idle two-core machine those run beside the main thread, so the main thread's time per record
 * is what bounds the rate one process reaches (bench/ingest.mjs).
 */
function mainThreadUs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return null;
  }
}

/**
 * Every thread's CPU time (µs): the main thread as `main`, the others as `name#id` (on Node 20 they
 * are all named "node": V8's platform threads, which compile and collect, the libuv pool, worker
 * threads such as the SQLite checkpointer), so that ingest-cost.mjs can rank them. Where the process's
 * total outgrows its main thread. Threads that ended in between are lost to it (process.cpuUsage()
 * keeps them in the total).
 */
function threadsUs() {
  const byThread = {};
  try {
    for (const task of readdirSync('/proc/self/task')) {
      const name = readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
      const us = Number(readFileSync(`/proc/self/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1000;
      const key = Number(task) === process.pid ? 'main' : `${name}#${task}`;
      byThread[key] = us;
    }
  } catch {
    return null;
  }
  return byThread;
}

process.on('message', async (message) => {
  if (message.start) {
    server = await start(message.start);
    process.send({ url: server.url });
  } else if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: { total: user + system, main: mainThreadUs(), threads: threadsUs() } });
  } else if (message.profile) {
    await (message.profile === 'start' ? profileStart() : profileStop(message.profile));
    process.send({ profiled: true });
  } else if (message === 'close') {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    process.send({ closed: true }, () => process.exit(0));
  }
});
process.send({ ready: true });
