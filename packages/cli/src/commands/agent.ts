import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_FORMS } from '@waypost/node';
import { AGENT, resolveAgentOptions } from '../agent/agent-options.js';
import { runAgent } from '../agent/agent-service.js';
import { quoteSystemdArg, renderSystemdUnit } from '../agent/systemd-unit.js';
import { EXIT_OK } from '../errors.js';
import type { Command } from './command.js';

const BIN = fileURLToPath(new URL('../bin.js', import.meta.url));

/** The same options as given, for the unit's ExecStart=, with files made absolute. */
/** A path option as systemd runs it: from its own working directory, so made absolute. */
const absolutePath = (flag: string, value: string): string =>
  flag === 'database' || flag === 'config' ? resolve(value) : value;

/** A file source (gpx:, nmea-file:) with its path made absolute, like --database; others as given. */
function absoluteSource(text: string): string {
  const file = /^(gpx|nmea-file):(.+)$/.exec(text);
  return file && file[2] !== '-' ? `${file[1]}:${resolve(file[2]!)}` : text;
}

function unitArgs(values: Record<string, string | boolean | undefined>): string[] {
  const args: string[] = [];
  for (const flag of [
    'source',
    'url',
    'database',
    'config',
    'replay-speed',
    'shutdown-timeout',
    'device-id',
    'give-up-after',
  ]) {
    const value = values[flag];
    if (typeof value !== 'string') continue;
    args.push(`--${flag}`, flag === 'source' ? absoluteSource(value) : absolutePath(flag, value));
  }
  if (values['exit-when-done'] === true) args.push('--exit-when-done');
  return args;
}

export const agentCommand: Command = {
  name: 'agent',
  summary: 'run the SDK as a service: read a location source, record, upload',
  options: {
    database: { type: 'string' },
    url: { type: 'string' },
    source: { type: 'string' },
    'replay-speed': { type: 'string' },
    'exit-when-done': { type: 'boolean' },
    config: { type: 'string' },
    'print-systemd-unit': { type: 'boolean' },
    'shutdown-timeout': { type: 'string' },
    'device-id': { type: 'string' },
    'give-up-after': { type: 'string' },
  },
  help: `Usage: ${AGENT} --source SOURCE [--url URL] [--database FILE] [options]
       ${AGENT} --config FILE.json
       ${AGENT} --print-systemd-unit [same options]

The background service of spec 1.2/1.6: reads fixes from a location source, records them into the
SQLite queue and uploads them per the configuration, until SIGTERM or SIGINT. Apps may open the
same database with createBackgroundGeolocation() meanwhile to change the configuration (picked up
within seconds), call sync() or read the queue. Logs go to stderr.

Sources:
  ${SOURCE_FORMS.split(', ').join('\n  ')}

Options:
  --source SOURCE      where fixes come from (see above)
  --url URL            upload URL (http.url)
  --database FILE      the SQLite queue (default ./waypost.db)
  --replay-speed X     file sources: 1 = recorded pace (default), 10 = ten times faster,
                       0 = as fast as possible
  --exit-when-done     file sources: exit 0 once the file is read and the queue is empty;
                       exit 1 when nothing could be delivered for --give-up-after
  --give-up-after D    with --exit-when-done: how long to keep retrying without a delivery
                       (waits 1s doubling to 1m, and as long as a Retry-After says); default 2m
  --device-id NAME     this device's name on the server (http.params.device_id); default: the
                       name the configuration gives, else <host name>-<8 characters of the
                       device uuid kept in the database>
  --config FILE.json   the options above as "source", "database", "replaySpeed", "exitWhenDone",
                       "deviceId",
                       plus any SDK configuration ("http", "persistence", "app", ...); flags win
  --shutdown-timeout D after SIGTERM, how long to wait for the upload in flight (default 10s);
                       past it its records are unlocked (sent again later) and the agent exits
  --print-systemd-unit print a systemd unit that runs this agent with these options, and exit

Tracking starts when the agent starts; after a reboot only with app.startOnBoot (and
app.stopOnTerminate: false, since stopping the agent stops tracking otherwise).

Exit codes: 0 stopped cleanly, 1 could not open the database or (--exit-when-done) gave up
delivering, 2 bad command line, configuration or source file.
`,
  async run(values, _positionals, io) {
    const options = resolveAgentOptions(values);
    if (values['print-systemd-unit'] === true) {
      io.stdout.write(
        renderSystemdUnit({
          execStart: [process.execPath, BIN, 'agent', ...unitArgs(values)].map(quoteSystemdArg).join(' '),
          workingDirectory: process.cwd(),
          gpsd: options.source.kind === 'gpsd',
        }),
      );
      return EXIT_OK;
    }
    return runAgent(options, io);
  },
};
