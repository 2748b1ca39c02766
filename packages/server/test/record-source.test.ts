import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { dumpDatabase } from './helpers/db-dump.js';

// The stored `record` column is the text each record arrived as where the body's JSON gives it by
// position (issue 43: no JSON.stringify a record), and the record written out from its value where
// it does not. Either way it parses to what was sent. The expected texts are the test's own: it
// builds each body from record texts it wrote by hand (spaces, digits JSON.stringify would drop,
// braces inside strings, text beyond ASCII).

let n = 0;
/** A record's text as a client might write it: not what JSON.stringify would make of it. */
const recordText = (note: string, device = ''): string => {
  n += 1;
  return `{ ${device}"uuid": "src-${n}",\n  "timestamp": "2024-05-01T10:00:${String(n % 60).padStart(2, '0')}Z",
  "coords": { "latitude": 48.10, "longitude": 11.50, "accuracy": 5.0 },
  "odometer": 1e3, "extras": { "note": ${JSON.stringify(note)} } }`;
};
const uuidOf = (text: string): string => (JSON.parse(text) as { uuid: string }).uuid;

for (const backend of backends) {
  describe(`stored record text (${backend.name})`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(backend);
    });
    afterAll(async () => server.stop());

    const storedTexts = async (): Promise<Map<string, string>> => {
      const rows = (await dumpDatabase(server.storage)).locations!;
      return new Map(rows.map((row) => [row.uuid!, row.record!]));
    };

    it('keeps each record of a batch as it was written, spaces, digits and all', async () => {
      const texts = [recordText('plain'), recordText('} { ] [ , :'), recordText('日本 🚚 é')];
      const body = `{ "device_id": "src-a",\n "location": [\n  ${texts.join(' ,\n  ')}\n ] }`;
      const reply = await server.post('/locations', body);
      expect(reply.body).toMatchObject({ stored: 3 });
      const stored = await storedTexts();
      for (const text of texts) expect(stored.get(uuidOf(text))).toBe(text);
    });

    it('keeps the records of a bare array and of a gzip body as written', async () => {
      const bare = [recordText('bare one', '"device_id": "src-b", '), recordText('bare two')];
      const reply = await server.post('/locations', `[${bare.join(',')}]`);
      expect(reply.body).toMatchObject({ stored: 2 });
      const zipped = [recordText('zipped one'), recordText('zipped ü two')];
      const response = await fetch(`${server.url}/locations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(`{"location":[${zipped.join(',')}],"device_id":"src-c"}`),
      });
      expect(response.status).toBe(200);
      const stored = await storedTexts();
      for (const text of [...bare, ...zipped]) expect(stored.get(uuidOf(text))).toBe(text);
    });

    it('keeps the records of a bare array of thousands, each holding objects of its own', async () => {
      // 6,000 records of 2 objects each: 12,000 containers one level below the records.
      const texts = Array.from({ length: 6000 }, (_, i) =>
        recordText(`many ${i}`, i === 0 ? '"device_id": "src-f", ' : ''),
      );
      const reply = await server.post('/locations', `[${texts.join(',')}]`);
      expect(reply.body).toMatchObject({ stored: 6000 });
      const stored = await storedTexts();
      for (const text of [texts[0]!, texts[1234]!, texts[5999]!]) expect(stored.get(uuidOf(text))).toBe(text);
    });

    it('writes a record out from its value where its place or text is not certain', async () => {
      const escaped = recordText('a "quoted" word'); // an escape: the text is parsed with the poison check
      const twoArrays = recordText('beside another array');
      const dropped = recordText('the first of a key sent twice');
      const kept = recordText('the last of a key sent twice');
      const besideNumber = recordText('beside a number');
      const bodies = [
        `{"device_id":"src-d","location":[${escaped}]}`,
        `{"device_id":"src-d","location":[${twoArrays}],"tags":["a","b"]}`,
        `{"device_id":"src-d","location":[${dropped}],"location":[${kept}]}`,
        `{"device_id":"src-d","location":[${besideNumber}, 5]}`,
      ];
      for (const body of bodies) expect((await server.post('/locations', body)).status).toBe(200);
      const stored = await storedTexts();
      for (const text of [escaped, twoArrays, kept, besideNumber]) {
        const got = stored.get(uuidOf(text))!;
        expect(got).toBe(JSON.stringify(JSON.parse(text)));
      }
      expect(stored.has(uuidOf(dropped))).toBe(false);
    });

    it('stores a record whose bytes are not UTF-8 as the parser read it, refusing nothing', async () => {
      const text = recordText('broken: @@');
      const [head, tail] = text.split('@@') as [string, string];
      const body = Buffer.concat([
        Buffer.from('{"device_id":"src-e","location":['),
        Buffer.from(head),
        Buffer.from([0xff, 0xc3]), // a byte no UTF-8 text holds, and a sequence cut short
        Buffer.from(tail),
        Buffer.from(']}'),
      ]);
      const response = await fetch(`${server.url}/locations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(await response.json()).toMatchObject({ stored: 1 });
      const read = JSON.parse(body.toString()) as { location: unknown[] };
      expect((await storedTexts()).get(uuidOf(text))).toBe(JSON.stringify(read.location[0]));
    });
  });
}
