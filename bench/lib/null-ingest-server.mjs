// The ceiling of this machine for the ingest benches: node:http reading and parsing the body and
// answering 200 with the count, storing nothing. No Node service that stores records can go
// faster with the same load process on the same cores; bench/ingest.mjs measures it in each run
// to tell whether the "x anchor" line is reachable here at all.
import { createServer } from 'node:http';

export async function startNullIngestServer() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const stored = Array.isArray(body.location) ? body.location.length : 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ stored }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
