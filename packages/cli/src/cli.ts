import { readFileSync } from 'node:fs';
import { parseCommandLine } from './args.js';
import { agentCommand } from './commands/agent.js';
import type { Command } from './commands/command.js';
import { demoCommand } from './commands/demo.js';
import { logCommand } from './commands/log.js';
import { queueCommand } from './commands/queue.js';
import { receiptsCommand } from './commands/receipts.js';
import { serverCommand } from './commands/server.js';
import { simulateCommand } from './commands/simulate.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './errors.js';
import { processIo, type Io } from './io.js';

export const COMMANDS: readonly Command[] = [
  serverCommand,
  agentCommand,
  simulateCommand,
  queueCommand,
  receiptsCommand,
  logCommand,
  demoCommand,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: waypost <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run waypost <command> --help for a command's options; waypost --version prints the version.
Results go to stdout, progress and diagnostics to stderr.
Exit codes: 0 success, 1 the command failed (records lost, an error), 2 bad command line.
`;
}

/** The command's own version (packages/cli/package.json, beside src/ and dist/). */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Runs one command line; never throws, returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(mainHelp());
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) {
      throw new CliError(
        'USAGE',
        `waypost: unknown command ${JSON.stringify(name)}; use one of ${COMMANDS.map((c) => c.name).join(', ')} (see waypost --help)`,
      );
    }
    const { values, positionals } = parseCommandLine(
      `waypost ${command.name}`,
      [...rest],
      command.options,
      command.positionals,
    );
    if (values['help'] === true) {
      io.stdout.write(command.help);
      return EXIT_OK;
    }
    return await command.run(values, positionals, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    const err = error as Error & { code?: string };
    io.stderr.write(`waypost ${name}: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
    return EXIT_FAILURE;
  }
}
