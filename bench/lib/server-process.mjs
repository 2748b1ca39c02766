// A Waypost server in a process of its own, so that a benchmark measures its memory alone: started
// from the BUILT package with the options the parent sends, it answers { url } once listening and
// { rss } whenever asked, and closes on 'close'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { startServer } = await import('../../packages/server/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'waypost-bench-server-'));
let server;

process.on('message', async (message) => {
  if (message.start) {
    const storage = message.start.databaseUrl ? {} : { database: join(dir, 'server.db') };
    server = await startServer({ port: 0, ...storage, ...message.start });
    process.send({ url: server.url });
  } else if (message === 'rss') {
    process.send({ rss: process.memoryUsage().rss });
  } else if (message === 'close') {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    process.send({ closed: true }, () => process.exit(0));
  }
});
process.send({ ready: true });
