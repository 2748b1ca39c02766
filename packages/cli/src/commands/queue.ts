import { integerFlag, requireFlag, stringFlag } from '../args.js';
import { CliError, EXIT_FAILURE, EXIT_OK, usageError } from '../errors.js';
import { isWaypostError } from '@waypost/node';
import type { Command } from './command.js';
import { openDeviceDatabase } from './open-device.js';
import { describeUploadFailure } from '../upload-failure.js';

const NAME = 'waypost queue';
const ACTIONS = ['count', 'list', 'sync', 'destroy'] as const;
type Action = (typeof ACTIONS)[number];

export const queueCommand: Command = {
  name: 'queue',
  summary: "inspect, upload or empty a device's queue (count | list | sync | destroy)",
  positionals: true,
  options: {
    database: { type: 'string' },
    limit: { type: 'string' },
    url: { type: 'string' },
  },
  help: `Usage: ${NAME} --database FILE <count | list [--limit N] | sync [--url URL] | destroy>

  count     print how many records are queued
  list      print the queued records, one JSON object per line, in queue order (default limit 100)
  sync      upload the queue now to the saved http.url (or --url, used for this sync only);
            prints how many were delivered and how many are left
  destroy   delete every queued record; prints how many were removed

Options:
  --database FILE   the device's SQLite file (required)
  --limit N         list at most N records (default 100; 0 = all)
  --url URL         sync to this URL instead of the saved one

Exit codes: 0 done (sync: queue empty), 1 error or records left after sync, 2 bad command line.
`,
  async run(values, positionals, io) {
    const file = requireFlag(NAME, values, 'database');
    const [action, ...extra] = positionals;
    if (!action) throw usageError(`${NAME}: say what to do: ${ACTIONS.join(', ')} (see ${NAME} --help)`);
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw usageError(`${NAME}: unknown action ${JSON.stringify(action)}; use one of ${ACTIONS.join(', ')}`);
    }
    if (extra.length > 0) throw usageError(`${NAME}: unexpected argument ${JSON.stringify(extra[0])}`);
    const limit = integerFlag(NAME, values, 'limit', 100, { min: 0 });
    const url = stringFlag(values, 'url');
    if (values['limit'] !== undefined && action !== 'list') throw usageError(`${NAME}: --limit applies to list only`);
    if (url !== undefined && action !== 'sync') throw usageError(`${NAME}: --url applies to sync only`);

    const bg = await openDeviceDatabase(file);
    try {
      switch (action as Action) {
        case 'count':
          io.stdout.write(`${await bg.getCount()}\n`);
          return EXIT_OK;
        case 'list': {
          const total = await bg.getCount();
          const records = await bg.getLocations(limit > 0 ? { limit } : {});
          for (const record of records) io.stdout.write(`${JSON.stringify(record)}\n`);
          if (records.length < total) io.stderr.write(`showing ${records.length} of ${total} (use --limit)\n`);
          return EXIT_OK;
        }
        case 'destroy':
          io.stdout.write(`${await bg.store.destroyLocations()}\n`);
          return EXIT_OK;
        case 'sync':
          return await sync(bg, url, io);
      }
    } finally {
      await bg.close();
    }
  },
};

async function sync(
  bg: Awaited<ReturnType<typeof openDeviceDatabase>>,
  url: string | undefined,
  io: Parameters<Command['run']>[2],
): Promise<number> {
  const saved = (await bg.getState()).http.url;
  const target = url ?? saved;
  if (!target) {
    throw new CliError('FAILED', `${NAME} sync: the database has no saved http.url; give one with --url`);
  }
  io.stderr.write(`uploading ${await bg.getCount()} records to ${target}...\n`);
  let failure: string | null = null;
  const listener = bg.onHttp((event) => {
    if (!event.success) failure = describeUploadFailure(event);
  });
  try {
    // --url is for this sync only: the device's saved configuration is put back afterwards.
    if (url !== undefined) await bg.setConfig({ http: { url } });
    const delivered = await bg.sync();
    const left = await bg.getCount();
    io.stdout.write(`delivered ${delivered.length}, queued ${left}\n`);
    if (left > 0) io.stderr.write(`upload stopped${failure ? ` (${failure})` : ''}; ${left} records stay queued\n`);
    return left === 0 ? EXIT_OK : EXIT_FAILURE;
  } catch (error) {
    if (isWaypostError(error)) throw new CliError('FAILED', `${NAME} sync: ${error.code}: ${error.message}`);
    throw error;
  } finally {
    listener.remove();
    if (url !== undefined) await bg.setConfig({ http: { url: saved } });
  }
}
