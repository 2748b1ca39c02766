import type { Queryable } from '../db/database.js';

export type Command = [string, ...unknown[]];

export interface CommandRow {
  id: number;
  device_id: string;
  command: string;
  status: 'pending' | 'delivered';
  created_at: number;
  delivered_at: number | null;
}

export async function queueCommand(
  db: Queryable,
  deviceId: string,
  command: Command,
  now: number,
): Promise<CommandRow> {
  const rows = await db.query<CommandRow & Record<string, unknown>>(
    `INSERT INTO commands (device_id, command, status, created_at) VALUES (?, ?, 'pending', ?) RETURNING *`,
    [deviceId, JSON.stringify(command), now],
  );
  return rows[0]!;
}

/**
 * Marks the pending commands of these devices delivered and returns them per device, in the order
 * they were queued. Run in the ingest transaction: a command rides on exactly one committed reply;
 * a concurrent transaction for the same device waits on the row locks and then finds nothing pending.
 */
export async function takePendingCommands(
  db: Queryable,
  deviceIds: readonly string[],
  now: number,
): Promise<Map<string, Command[]>> {
  const taken = new Map<string, Command[]>();
  if (deviceIds.length === 0) return taken;
  const rows = await db.query<{ id: number; device_id: string; command: string }>(
    `UPDATE commands SET status = 'delivered', delivered_at = ?
     WHERE status = 'pending' AND device_id IN (${deviceIds.map(() => '?').join(', ')}) RETURNING id, device_id, command`,
    [now, ...deviceIds],
  );
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    const list = taken.get(row.device_id) ?? [];
    list.push(JSON.parse(row.command) as Command);
    taken.set(row.device_id, list);
  }
  return taken;
}

export async function listCommands(db: Queryable, deviceId: string): Promise<CommandRow[]> {
  return db.query<CommandRow & Record<string, unknown>>(`SELECT * FROM commands WHERE device_id = ? ORDER BY id`, [
    deviceId,
  ]);
}

export function commandJson(row: CommandRow) {
  return {
    id: row.id,
    deviceId: row.device_id,
    command: JSON.parse(row.command) as unknown,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at).toISOString(),
  };
}
