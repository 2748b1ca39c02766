// The test kit ('@waypost/sdk/testing', issue 18): the scripted server answers through the real
// fetch transport, and the ManualClock fires timers in order, each one's work done before the next.
import { describe, expect, it } from 'vitest';
import { createFetchTransport, type HttpRequest } from '@waypost/sdk';
import { ManualClock, createScriptedServer, at, uuidsOf } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

const post = (body: string, timeoutMs = 1000): HttpRequest => ({
  url: 'http://waypost.test/locations?device=a',
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Key': 'k' },
  body,
  timeoutMs,
});

function transportOn(clock = new ManualClock()) {
  const server = createScriptedServer({ clock });
  return { clock, server, transport: createFetchTransport({ fetch: server.fetch, timers: clock }) };
}

describe('the scripted server behind the fetch transport', () => {
  it('records each request as sent and answers status, headers and body from the script', async () => {
    const { server, transport } = transportOn();
    server.script(
      { status: 503, text: 'busy', headers: { 'retry-after': '60', 'x-other': 'not read' } },
      { status: 204 },
    );
    expect(await transport.send(post('{"a":1}'))).toEqual({
      status: 503,
      text: 'busy',
      headers: { 'retry-after': '60' },
    });
    expect(await transport.send(post('[]'))).toEqual({ status: 204, text: '', headers: {} });
    expect(await transport.send(post('x'))).toMatchObject({ status: 200, text: '{}' });
    expect(server.requests.map((r) => [r.method, r.url, r.body, r.answered])).toEqual([
      ['POST', '/locations?device=a', { a: 1 }, 503],
      ['POST', '/locations?device=a', [], 204],
      ['POST', '/locations?device=a', undefined, 200],
    ]);
    expect(server.requests[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'x-key': 'k' });
    expect(new TextDecoder().decode(server.requests[2]!.raw)).toBe('x');
  });

  it('a delay runs on the clock: the answer comes when time reaches it, not before', async () => {
    const { clock, server, transport } = transportOn();
    server.script({ status: 200, json: { late: true }, delayMs: 500 });
    let answered = false;
    const sent = transport.send(post('{}')).then((r) => ((answered = true), r));
    await server.holding(1);
    await clock.advance(499);
    expect(answered).toBe(false);
    expect(server.pending).toBe(1);
    await clock.advance(1);
    expect(await sent).toMatchObject({ status: 200, text: '{"late":true}' });
    expect(server.pending).toBe(0);
  });

  it('a request nobody answers times out when the clock reaches http.timeout (TIMEOUT)', async () => {
    const { clock, server, transport } = transportOn();
    server.script({ hang: true });
    const sent = transport.send(post('{}', 250));
    const failure = expect(sent).rejects.toMatchObject({ code: 'TIMEOUT' });
    await server.holding(1);
    await clock.advance(250);
    await failure;
    expect(server.pending).toBe(0);
  });

  it('a body that never ends times out too; a reset is a NETWORK failure with its code', async () => {
    const { clock, server, transport } = transportOn();
    server.script({ stall: 200 }, { reset: true }, { reset: true, code: 'ECONNREFUSED' });
    const stalled = transport.send(post('{}', 100));
    const failure = expect(stalled).rejects.toMatchObject({ code: 'TIMEOUT' });
    await server.holding(1);
    await clock.advance(100);
    await failure;
    await expect(transport.send(post('{}'))).rejects.toMatchObject({ code: 'NETWORK', message: /ECONNRESET/ });
    await expect(transport.send(post('{}'))).rejects.toMatchObject({ code: 'NETWORK', message: /ECONNREFUSED/ });
  });

  it('close() fails the held requests at once and refuses the next ones', async () => {
    const { server, transport } = transportOn();
    server.script({ hang: true });
    const held = transport.send(post('{}'));
    await server.holding(1);
    server.close();
    await expect(held).rejects.toMatchObject({ code: 'NETWORK' });
    await expect(transport.send(post('{}'))).rejects.toMatchObject({ code: 'NETWORK', message: /ECONNREFUSED/ });
    expect(server.requests).toHaveLength(1);
  });

  it('received(n) resolves with the nth request once it has arrived', async () => {
    const { server, transport } = transportOn();
    const second = server.received(2);
    await transport.send(post('{"n":1}'));
    await transport.send(post('{"n":2}'));
    expect((await second).body).toEqual({ n: 2 });
    expect((await server.received(1)).body).toEqual({ n: 1 });
  });
});

describe('ManualClock', () => {
  it('fires due timers in order of due time, then of creation; later ones wait', async () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b@20'), 20);
    clock.setTimeout(() => fired.push('a@10'), 10);
    clock.setTimeout(() => fired.push('c@20'), 20);
    const cancelled = clock.setTimeout(() => fired.push('cancelled'), 5);
    clock.setTimeout(() => fired.push('d@30'), 30);
    clock.clearTimeout(cancelled);
    await clock.advance(20);
    expect(fired).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.now()).toBe(20);
    expect(clock.nextDue).toBe(30);
  });

  it("waits for each timer's work before the next one fires: a timer set by that work at a due time inside the step fires too", async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      void (async () => {
        for (let i = 0; i < 50; i++) await Promise.resolve();
        clock.setTimeout(() => seen.push(clock.now()), 5);
      })();
    }, 10);
    await clock.advance(15);
    expect(seen).toEqual([15]);
  });

  it('awaits what a settler says is still running (an engine idle), after every timer', async () => {
    const clock = new ManualClock(0);
    const order: string[] = [];
    let running: Promise<void> = Promise.resolve();
    clock.settleWith(() => running);
    clock.setTimeout(() => {
      running = new Promise<void>((resolve) => setTimeout(() => (order.push('work of 1 done'), resolve()), 20));
    }, 1);
    clock.setTimeout(() => order.push('timer 2'), 2);
    await clock.advance(2);
    expect(order).toEqual(['work of 1 done', 'timer 2']);
  });
});

describe('startEngine', () => {
  it('opens the engine on the doubles, readied with the scripted server as http.url', async () => {
    const { bg, server, http } = await engine();
    await bg.start();
    const location = await bg.recordLocation(at(0));
    await bg.idle();
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[location.uuid]]);
    expect(http.map((e) => e.status)).toEqual([200]);
  });

  it('an upload held on the clock (a delayed answer) does not stop advance(); the advance that reaches it ends it', async () => {
    const { bg, server, clock } = await engine({}, { replies: [{ status: 200, json: {}, delayMs: 1000 }] });
    await bg.start();
    await bg.recordLocation(at(0));
    await server.holding(1);
    await clock.advance(999);
    expect(await bg.getCount()).toBe(1);
    await clock.advance(1);
    expect(await bg.getCount()).toBe(0);
  });
});
