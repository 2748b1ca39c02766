// The upload target of the drain and memory benchmarks: a bare node:http server on 127.0.0.1 that
// reads each body to the end and answers 200 `{}`. It runs in its own process, as a real server
// would: its work must not be billed to (or hidden in) the client being measured.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/** Starts the sink in a child process; resolves with its url and a close(). */
export function startSink() {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the sink server exited (${code}) before listening`)));
    child.once('message', (url) => {
      child.removeAllListeners('exit');
      resolve({
        url,
        close: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill();
          }),
      });
    });
  });
}

if (process.argv[2] === 'serve') {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
      response.end('{}');
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(`http://127.0.0.1:${server.address().port}/locations`));
  // Ends with the parent, even if the parent dies without closing it.
  process.on('disconnect', () => process.exit(0));
}
