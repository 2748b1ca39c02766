// The parent's side of bench/lib/server-process.mjs: a Waypost server in a process of its own
// (so that its memory and CPU are its own), started with `options`, asked for its RSS, closed.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export function startServerProcess(options) {
  const child = fork(fileURLToPath(new URL('./server-process.mjs', import.meta.url)), { stdio: 'inherit' });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message && key in message) {
          child.off('message', onMessage);
          resolve(message[key]);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
    });
  return {
    /** The server process's pid (a benchmark reads its CPU time in /proc). */
    pid: child.pid,
    /** Resolves with the server's URL once it listens. */
    async start() {
      await next('ready');
      child.send({ start: options });
      return next('url');
    },
    rss: () => (child.send('rss'), next('rss')),
    close: async () => {
      child.send('close');
      await next('closed').catch(() => undefined);
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
