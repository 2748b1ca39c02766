import { requireFlag } from '../args.js';
import { EXIT_OK } from '../errors.js';
import { formatTable } from '../table.js';
import type { Command } from './command.js';
import { openDeviceDatabase } from './open-device.js';

const NAME = 'waypost receipts';

/** An upload URL as shown: no credentials, no query (they may carry a token). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

const rangesText = (ranges: readonly (readonly [number, number])[]) =>
  ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');

export const receiptsCommand: Command = {
  name: 'receipts',
  summary: "per day, up to where servers hold a device's records, verified by receipt",
  options: {
    database: { type: 'string' },
    json: { type: 'boolean' },
  },
  help: `Usage: ${NAME} --database FILE [--json]

Prints, per UTC day, upload URL and numbering, the sequence numbers a Waypost server acknowledged
with a verified receipt (docs/receipts.md), and the highest acknowledged by the end of that day
("the server holds my records up to here"), within the archive's window
(persistence.maxDaysToArchive).

Options:
  --database FILE   the device's SQLite file (required)
  --json            one JSON object per line instead of a table

Exit codes: 0 done, 1 error (no such database), 2 bad command line.
`,
  async run(values, _positionals, io) {
    const file = requireFlag(NAME, values, 'database');
    const bg = await openDeviceDatabase(file);
    try {
      const days = (await bg.store.getReceipts()).map((day) => ({ ...day, url: shownUrl(day.url) }));
      if (values['json'] === true) {
        for (const day of days) io.stdout.write(`${JSON.stringify(day)}\n`);
      } else if (days.length === 0) {
        io.stderr.write('no receipts kept (the server offers none, or nothing was delivered in the window)\n');
      } else {
        io.stdout.write(
          formatTable(
            ['day', 'url', 'numbering', 'up to', 'records', 'ranges'],
            days.map((d) => [d.day, d.url, d.epoch ?? '-', d.upTo, d.records, rangesText(d.ranges)]),
          ),
        );
      }
      return EXIT_OK;
    } finally {
      await bg.close();
    }
  },
};
