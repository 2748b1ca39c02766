import { createServer } from 'node:net';

/**
 * A raw HTTP/1.1 sink for the wire benches: counts the bytes of each request as they come off the
 * socket (request line, headers and body), keeps each body with its content coding, and answers
 * 200 `{}` on the same keep-alive connection with the headers `answer(sink)` gives (one
 * `name: value\r\n` line each), e.g. the codings it offers or the reports it reads.
 */
export async function startRawSink(answer = () => '') {
  const sink = { bytes: 0, requests: 0, bodies: [] };
  const server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      sink.bytes += chunk.length;
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const coding = /^content-encoding:\s*(\S+)/im.exec(head)?.[1] ?? 'identity';
        sink.bodies.push({ coding, data: buffer.subarray(end + 4, end + 4 + length) });
        buffer = buffer.subarray(end + 4 + length);
        sink.requests++;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${answer(sink)}content-length: 2\r\n\r\n{}`);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${server.address().port}/locations`;
  sink.close = () => new Promise((resolve) => server.close(resolve));
  return sink;
}
