import { integerFlag, requireFlag } from '../args.js';
import { EXIT_OK } from '../errors.js';
import type { Command } from './command.js';
import { openDeviceDatabase } from './open-device.js';

const NAME = 'waypost log';

export const logCommand: Command = {
  name: 'log',
  summary: "print a device's SDK log",
  options: {
    database: { type: 'string' },
    limit: { type: 'string' },
  },
  help: `Usage: ${NAME} --database FILE [--limit N]

Prints the SDK log kept in a device's database, oldest first: every upload can be followed
as Location, INSERT, Locked, HTTP POST, Response, DESTROY or UNLOCK.

Options:
  --database FILE   the device's SQLite file (required)
  --limit N         only the N most recent entries (default: all)

Exit codes: 0 done, 1 error (no such database), 2 bad command line.
`,
  async run(values, _positionals, io) {
    const file = requireFlag(NAME, values, 'database');
    const limit = integerFlag(NAME, values, 'limit', 0, { min: 0 });
    const bg = await openDeviceDatabase(file);
    try {
      const lines = (await bg.logger.getLog()).split('\n').filter((line) => line !== '');
      const shown = limit > 0 ? lines.slice(-limit) : lines;
      if (shown.length > 0) io.stdout.write(`${shown.join('\n')}\n`);
      return EXIT_OK;
    } finally {
      await bg.close();
    }
  },
};
