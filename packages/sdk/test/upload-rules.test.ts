import { describe, expect, it } from 'vitest';
import type { MotionChangeEvent } from '@waypost/sdk';
import { ManualNetwork, at, uuidsOf } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

// Spec section 3, "Upload-triggering rules", one test (or group) per rule.
describe('spec 3 upload-triggering rules', () => {
  it('rule 1: autoSync with threshold 0 uploads after every recorded location', async () => {
    const { bg, server } = await engine();
    await bg.start();
    for (let i = 0; i < 3; i++) {
      const location = await bg.recordLocation(at(i));
      await bg.idle();
      expect(server.requests).toHaveLength(i + 1);
      expect(uuidsOf(server.requests[i]!.body)).toEqual([location.uuid]);
    }
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
  });

  it('rule 2: threshold N uploads nothing until N records are queued, then all of them', async () => {
    const { bg, server } = await engine({ http: { autoSyncThreshold: 3 } });
    await bg.start();
    const first = [await bg.recordLocation(at(0)), await bg.recordLocation(at(1))];
    await bg.idle();
    expect(server.requests).toHaveLength(0);
    expect(await bg.getCount()).toBe(2);

    const third = await bg.recordLocation(at(2));
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual([...first, third].map((l) => l.uuid));
  });

  it('rule 3: changePace(true) and changePace(false) flush everything whatever the threshold, firing onMotionChange', async () => {
    const { bg, server } = await engine({ http: { autoSyncThreshold: 50 } });
    const motion: MotionChangeEvent[] = [];
    bg.onMotionChange((event) => motion.push(event));
    await bg.start();
    const queued = [await bg.recordLocation(at(0)), await bg.recordLocation(at(1))];
    await bg.idle();
    expect(server.requests).toHaveLength(0);

    await bg.changePace(true);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(motion.map((m) => m.isMoving)).toEqual([true]);
    const sent = server.requests.flatMap((r) => uuidsOf(r.body));
    expect(sent).toEqual([...queued.map((l) => l.uuid), motion[0]!.location!.uuid]);

    const more = [await bg.recordLocation(at(2)), await bg.recordLocation(at(3))];
    await bg.idle();
    expect(await bg.getCount()).toBe(2);
    await bg.changePace(false);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(motion.map((m) => m.isMoving)).toEqual([true, false]);
    const sentAfter = server.requests.flatMap((r) => uuidsOf(r.body)).slice(sent.length);
    expect(sentAfter).toEqual([...more.map((l) => l.uuid), motion[1]!.location!.uuid]);
  });

  it('rule 4: with autoSync false the queue grows and only sync() uploads', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } });
    await bg.start();
    const recorded = [];
    for (let i = 0; i < 3; i++) recorded.push(await bg.recordLocation(at(i)));
    await bg.changePace(true); // even a motion change does not upload with autoSync off
    await bg.idle();
    expect(server.requests).toHaveLength(0);
    expect(await bg.getCount()).toBe(4);

    const delivered = await bg.sync();
    expect(delivered.map((l) => l.uuid).slice(0, 3)).toEqual(recorded.map((l) => l.uuid));
    expect(server.requests).toHaveLength(4);
    expect(await bg.getCount()).toBe(0);
  });

  describe('rule 5: disableAutoSyncOnCellular', () => {
    it('on cellular records are queued and not uploaded; switching to wifi uploads them', async () => {
      const network = new ManualNetwork('cellular');
      const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
      await bg.start();
      const recorded = [await bg.recordLocation(at(0)), await bg.recordLocation(at(1))];
      await bg.idle();
      expect(server.requests).toHaveLength(0);
      expect(await bg.getCount()).toBe(2);

      network.set('wifi');
      await bg.idle();
      expect(await bg.getCount()).toBe(0);
      expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual(recorded.map((l) => l.uuid));
    });

    it('sync() on cellular uploads anyway', async () => {
      const network = new ManualNetwork('cellular');
      const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
      await bg.start();
      const recorded = await bg.recordLocation(at(0));
      const delivered = await bg.sync();
      expect(delivered.map((l) => l.uuid)).toEqual([recorded.uuid]);
      expect(server.requests).toHaveLength(1);
    });

    it('ethernet counts as allowed', async () => {
      const network = new ManualNetwork('ethernet');
      const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
      await bg.start();
      const location = await bg.recordLocation(at(0));
      await bg.idle();
      expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[location.uuid]]);
    });

    it("'none' never auto-uploads, with or without the cellular policy; reconnecting uploads", async () => {
      for (const disableAutoSyncOnCellular of [false, true]) {
        const network = new ManualNetwork('none');
        const { bg, server } = await engine({ http: { disableAutoSyncOnCellular } }, { network });
        const motion: MotionChangeEvent[] = [];
        bg.onMotionChange((event) => motion.push(event));
        await bg.start();
        const location = await bg.recordLocation(at(0));
        await bg.changePace(true);
        await bg.idle();
        expect(server.requests).toHaveLength(0);
        network.set(disableAutoSyncOnCellular ? 'wifi' : 'cellular');
        await bg.idle();
        expect(await bg.getCount()).toBe(0);
        // One request per record, in queue order: the location, then the motionchange record.
        expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[location.uuid], [motion[0]!.location.uuid]]);
      }
    });

    it('cellular to none to cellular never uploads while the policy is on', async () => {
      const network = new ManualNetwork('cellular');
      const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
      await bg.start();
      await bg.recordLocation(at(0));
      network.set('none');
      network.set('cellular');
      await bg.idle();
      expect(server.requests).toHaveLength(0);
      expect(await bg.getCount()).toBe(1);
    });
  });

  describe('rule 6: batchSync', () => {
    it('one request carries all queued records, as an array in queue order', async () => {
      const { bg, server } = await engine({ http: { autoSync: false, batchSync: true } });
      const inserted = [];
      for (let i = 0; i < 5; i++) inserted.push(await bg.store.insertLocation(at(i)));
      const delivered = await bg.sync();
      expect(server.requests).toHaveLength(1);
      const body = server.requests[0]!.body as { location: { uuid: string }[] };
      expect(Array.isArray(body.location)).toBe(true);
      expect(body.location.map((r) => r.uuid)).toEqual(inserted.map((l) => l.uuid));
      expect(delivered.map((l) => l.uuid)).toEqual(inserted.map((l) => l.uuid));
    });

    it.each([
      [5, 2, [2, 2, 1]],
      [6, 3, [3, 3]],
      [3, 5, [3]],
      [4, 1, [1, 1, 1, 1]],
    ])('%i records with maxBatchSize %i: ceil(n/max) array requests until drained, in order', async (n, max, sizes) => {
      const { bg, server } = await engine({ http: { autoSync: false, batchSync: true, maxBatchSize: max } });
      const inserted = [];
      for (let i = 0; i < n; i++) inserted.push(await bg.store.insertLocation(at(i)));
      await bg.sync();
      expect(server.requests).toHaveLength(Math.ceil(n / max));
      const batches = server.requests.map((r) => (r.body as { location: { uuid: string }[] }).location);
      expect(batches.every(Array.isArray)).toBe(true);
      expect(batches.map((b) => b.length)).toEqual(sizes);
      expect(batches.flat().map((r) => r.uuid)).toEqual(inserted.map((l) => l.uuid));
      expect(await bg.getCount()).toBe(0);
    });

    it('locationsOrderDirection DESC uploads newest first', async () => {
      const { bg, server } = await engine({
        http: { autoSync: false, batchSync: true, maxBatchSize: 2 },
        persistence: { locationsOrderDirection: 'DESC' },
      });
      const inserted = [];
      for (let i = 0; i < 3; i++) inserted.push((await bg.store.insertLocation(at(i))).uuid);
      await bg.sync();
      expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[inserted[2], inserted[1]], [inserted[0]]]);
    });

    it('automatic uploads batch too: with a threshold the Nth record sends one array of N', async () => {
      const { bg, server } = await engine({ http: { batchSync: true, autoSyncThreshold: 3 } });
      await bg.start();
      for (let i = 0; i < 3; i++) await bg.recordLocation(at(i));
      await bg.idle();
      expect(await bg.getCount()).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect((server.requests[0]!.body as { location: unknown[] }).location).toHaveLength(3);
    });
  });
});
