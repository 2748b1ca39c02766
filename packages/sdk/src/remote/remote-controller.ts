import type { RemoteCommandName } from '../config/types.js';
import { REMOTE_COMMANDS } from '../config/upload-fields.js';
import type { RemoteCommandEvent } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import { checkRemoteCommand } from './command-table.js';
import { parseRemoteCommands, type RemoteCommand } from './parse-commands.js';

/** What each remote command does: the SDK's own operations (spec 4.2 "same as"). */
export type CommandHandlers = { [K in RemoteCommandName]: (args: unknown[]) => Promise<unknown> };

export interface RemoteControllerDeps {
  handlers: CommandHandlers;
  allowed: () => readonly RemoteCommandName[];
  logger: SdkLogger;
  emit: (event: RemoteCommandEvent) => void;
}

/**
 * Runs the commands a server put in a response, in order. Each is checked (known, allowed by
 * http.remoteCommands, right arguments) and reported on onRemoteCommand; one failing command never
 * stops the others, and nothing here can throw into the upload that carried it.
 */
export class RemoteController {
  constructor(private readonly deps: RemoteControllerDeps) {}

  async handleResponse(text: string): Promise<void> {
    const parsed = parseRemoteCommands(text);
    if (parsed.error) this.report({ name: '(unreadable)', args: [] }, parsed.error);
    for (const command of parsed.commands) await this.run(command);
  }

  private async run(command: RemoteCommand): Promise<void> {
    const problem = this.check(command);
    if (problem) return this.report(command, problem);
    try {
      await this.deps.handlers[command.name as RemoteCommandName](command.args);
      this.report(command, null);
    } catch (error) {
      this.report(command, (error as Error)?.message ?? String(error));
    }
  }

  private check(command: RemoteCommand): string | null {
    if (
      (REMOTE_COMMANDS as readonly string[]).includes(command.name) &&
      !this.deps.allowed().includes(command.name as RemoteCommandName)
    ) {
      return 'not allowed by http.remoteCommands';
    }
    return checkRemoteCommand(command.name, command.args);
  }

  private report(command: RemoteCommand, error: string | null): void {
    // The command's name only: arguments (a setConfig) may carry tokens, and the log never shows them.
    if (error) this.deps.logger.warn('Remote', `command ${command.name} rejected: ${error}`);
    else this.deps.logger.info('Remote', `command ${command.name} done`);
    this.deps.emit({ command: command.name, args: command.args, ok: error === null, error });
  }
}
