import { describe, expect, it } from 'vitest';
import { record } from './helpers/client.js';
import { useServerProcesses } from './helpers/server-processes.js';

describe('two server processes sharing one PostgreSQL', () => {
  const servers = useServerProcesses(2);

  it('stores each uuid exactly once when overlapping batches are re-sent concurrently to both', async () => {
    const DISTINCT = 300;
    const BATCH = 60;
    const batches: unknown[][] = [];
    // Windows overlapping by half, each sent to both processes: every uuid arrives 4 times at once.
    for (let start = 0; start + BATCH <= DISTINCT; start += BATCH / 2) {
      batches.push(Array.from({ length: BATCH }, (_, i) => record(`mp-${String(start + i).padStart(4, '0')}`)));
    }
    batches.push(Array.from({ length: BATCH / 2 }, (_, i) => record(`mp-${String(i).padStart(4, '0')}`)));
    batches.push(
      Array.from({ length: BATCH / 2 }, (_, i) => record(`mp-${String(DISTINCT - 1 - i).padStart(4, '0')}`)),
    );
    const sends = batches.flatMap((batch) =>
      servers.map(({ url }) =>
        fetch(`${url}/locations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ location: batch, device_id: 'fleet-1' }),
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as { stored: number; duplicates: number },
        })),
      ),
    );
    const replies = await Promise.all(sends);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const stored = replies.reduce((sum, r) => sum + r.body.stored, 0);
    const received = replies.reduce((sum, r) => sum + r.body.stored + r.body.duplicates, 0);
    expect(stored).toBe(DISTINCT);
    expect(received).toBe(batches.reduce((sum, b) => sum + b.length, 0) * 2);
    const rows = await fetch(`${servers[1]!.url}/api/devices/fleet-1/locations?limit=100000`, {
      headers: { authorization: 'Bearer admin-secret' },
    }).then((r) => r.json() as Promise<{ uuid: string }[]>);
    expect(rows).toHaveLength(DISTINCT);
    expect(new Set(rows.map((r) => r.uuid)).size).toBe(DISTINCT);
    const devices = await fetch(`${servers[0]!.url}/api/devices`, {
      headers: { authorization: 'Bearer admin-secret' },
    }).then((r) => r.json() as Promise<{ id: string; records: number }[]>);
    expect(devices).toEqual([expect.objectContaining({ id: 'fleet-1', records: DISTINCT })]);
  });
});
