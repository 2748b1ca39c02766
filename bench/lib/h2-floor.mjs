// What one-by-one uploads cost over HTTP/2 (issue 34): the bodies the SDK sent one by one, sent
// again by node:http2 over one cleartext connection (h2c, prior knowledge) with the headers the
// SDK sends (content-type, content-encoding), counted at a TCP proxy in front of an HTTP/2 server:
// connection preface, SETTINGS, HEADERS (HPACK) and DATA frames, everything the client writes.
// The SDK does not speak HTTP/2 yet; this is the floor HTTP/2 would give its bodies.
import { connect as connectH2, createServer as createH2Server } from 'node:http2';
import { connect as connectTcp, createServer as createTcpServer } from 'node:net';

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

/** Bytes the client wrote per body, over HTTP/2, for `bodies` ({ coding, data }) sent in order. */
export async function h2BytesPerBody(bodies) {
  const server = createH2Server((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  const serverPort = await listen(server);
  let upstream = 0;
  const proxy = createTcpServer((client) => {
    const target = connectTcp(serverPort, '127.0.0.1');
    client.on('data', (chunk) => (upstream += chunk.length));
    client.pipe(target).pipe(client);
    client.on('error', () => target.destroy());
    target.on('error', () => client.destroy());
  });
  const proxyPort = await listen(proxy);
  const session = connectH2(`http://127.0.0.1:${proxyPort}`);
  const send = ({ coding, data }) =>
    new Promise((resolve, reject) => {
      const headers = { ':method': 'POST', ':path': '/locations', 'content-type': 'application/json' };
      if (coding !== 'identity') headers['content-encoding'] = coding;
      const stream = session.request(headers);
      stream.on('response', () => {});
      stream.on('error', reject);
      stream.resume();
      stream.on('end', resolve);
      stream.end(data);
    });
  try {
    await send(bodies[0]); // the connection's preface and SETTINGS, then the first headers indexed
    const before = upstream;
    for (const body of bodies.slice(1)) await send(body);
    return {
      perBody: (upstream - before) / (bodies.length - 1),
      bodyBytes: bodies.slice(1).reduce((n, b) => n + b.data.length, 0) / (bodies.length - 1),
    };
  } finally {
    session.close();
    await new Promise((resolve) => proxy.close(resolve));
    await new Promise((resolve) => server.close(resolve));
  }
}
