import { createServer, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  createGpsdProvider,
  GPSD_WATCH_COMMAND,
  ManualClock,
  RECONNECT_BASE_MS,
  type LocationInput,
} from '@waypost/node';
import { Arrivals } from '../support/arrivals.js';

const tpv = (time: string, lat: number) =>
  JSON.stringify({
    class: 'TPV',
    device: '/dev/ttyACM0',
    mode: 3,
    time,
    lat,
    lon: 13.4,
    altMSL: 35,
    eph: 3.1,
    epv: 4,
    speed: 1,
    track: 90,
  });

/** A stand-in gpsd speaking its JSON protocol: the test decides what each connection gets. */
async function fakeGpsd() {
  const connections = new Arrivals<{ socket: Socket; commands: Arrivals<string> }>();
  const server = createServer((socket) => {
    const connection = { socket, commands: new Arrivals<string>() };
    connections.push(connection);
    socket.on('data', (chunk) => connection.commands.push(chunk.toString()));
    socket.on('error', () => undefined);
    socket.write('{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as { port: number }).port, connections };
}

describe('the gpsd provider', () => {
  it('asks for JSON reports, records each epoch once, and reconnects with backoff when gpsd goes away', async () => {
    const gpsd = await fakeGpsd();
    const clock = new ManualClock();
    const provider = createGpsdProvider({ port: gpsd.port, clock });
    onTestFinished(() => provider.stop());
    const fixes = new Arrivals<LocationInput>();
    const errors = new Arrivals<Error & { code?: string }>();
    await provider.start(fixes.push, errors.push);
    expect(provider.name).toBe(`gpsd 127.0.0.1:${gpsd.port}`);
    const connection = await gpsd.connections.count(1);
    await connection.commands.when((chunks) => chunks.join('').length >= GPSD_WATCH_COMMAND.length);
    expect(connection.commands.items.join('')).toBe(GPSD_WATCH_COMMAND);

    const first = connection.socket;
    // A report split across writes, a repeated epoch, a SKY report, a TPV without a fix.
    const t1 = '2026-05-17T09:00:01.000Z';
    first.write(
      `${tpv(t1, 52.1)}\n${tpv(t1, 52.1)}\n{"class":"SKY","satellites":[]}\n{"class":"TPV","mode":1}\n${tpv('2026-05-17T09:00:02.000Z', 52.2).slice(0, 30)}`,
    );
    first.write(`${tpv('2026-05-17T09:00:02.000Z', 52.2).slice(30)}\n`);
    await fixes.count(2);
    expect(fixes.items.map((f) => [f.timestamp, f.coords!.latitude, f.coords!.accuracy])).toEqual([
      [t1, 52.1, 3.1],
      ['2026-05-17T09:00:02.000Z', 52.2, 3.1],
    ]);

    first.destroy(); // gpsd restarted
    expect(await errors.count(1)).toMatchObject({ code: 'SOURCE_LOST' });
    await clock.advance(RECONNECT_BASE_MS - 1);
    expect(gpsd.connections.items).toHaveLength(1);
    await clock.advance(1);
    const second = await gpsd.connections.count(2);
    await second.commands.count(1); // the WATCH command again
    second.socket.write(`${tpv('2026-05-17T09:00:03.000Z', 52.3)}\n`);
    await fixes.count(3);

    await provider.stop();
    expect(errors.items).toHaveLength(1); // stopping is not a failure
  });

  it('gpsd not running: reported as SOURCE_UNAVAILABLE and retried with doubling delays', async () => {
    const clock = new ManualClock();
    // A port nobody listens on: take one and close it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const provider = createGpsdProvider({ port, clock });
    onTestFinished(() => provider.stop());
    const errors = new Arrivals<Error & { code?: string }>();
    await provider.start(() => undefined, errors.push);
    const first = await errors.count(1);
    expect(first.code).toBe('SOURCE_UNAVAILABLE');
    expect(first.message).toMatch(/^gpsd 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    await clock.advance(2 * RECONNECT_BASE_MS - 1); // second attempt after 1 s, not 500 ms
    expect(errors.items).toHaveLength(1);
    await clock.advance(1);
    expect(await errors.count(2)).toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
  });
});
