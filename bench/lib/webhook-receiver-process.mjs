// A webhook receiver in a process of its own (as a real one would be: not sharing the server's
// event loop): answers 204, and on request reports how many events came and, for each, the time from
// its receivedAt (the ingest transaction) to its arrival here, in ms.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/** Starts the receiver process: { url, stats(), close() }. */
export async function startReceiverProcess() {
  const child = fork(fileURLToPath(import.meta.url), ['--receiver'], { stdio: 'inherit' });
  const replies = [];
  child.on('message', (message) => replies.shift()?.(message));
  const ask = (message) => new Promise((resolve) => (replies.push(resolve), child.send(message)));
  const { url } = await new Promise((resolve) => replies.push(resolve));
  return {
    url,
    stats: () => ask('stats'),
    close: () => new Promise((resolve) => (child.once('exit', resolve), child.send('close'))),
  };
}

if (process.argv[2] === '--receiver') {
  const latencies = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      latencies.push(Date.now() - Date.parse(JSON.parse(Buffer.concat(chunks).toString()).receivedAt));
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/hook` }));
  process.on('message', (message) => {
    if (message === 'stats') process.send({ received: latencies.length, latencies });
    if (message === 'close') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
}
