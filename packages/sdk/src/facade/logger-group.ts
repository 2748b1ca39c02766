import { WaypostError } from '../errors.js';
import type { SdkLogger } from '../log/logger.js';
import { ORDER_ASC, ORDER_DESC, type LogQueryInput } from '../store/query.js';

/** The anchor's Logger: the SDK log read, mailed, uploaded and written to by the application. */
export interface AnchorLogger {
  readonly ORDER_ASC: 1;
  readonly ORDER_DESC: -1;
  debug(message: string): void;
  info(message: string): void;
  notice(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** The log as text, one entry a line: oldest first, or as `query` says (the anchor's SQLQuery). */
  getLog(query?: LogQueryInput): Promise<string>;
  /** Mails the log; rejects NOT_SUPPORTED on a host created without a mail sender. */
  emailLog(email: string, query?: LogQueryInput): Promise<boolean>;
  /** POSTs the log gzipped as multipart form data; resolves true on 2xx, rejects otherwise. */
  uploadLog(url: string, query?: LogQueryInput): Promise<boolean>;
  destroyLog(): Promise<void>;
}

export interface LoggerGroupDeps {
  log: SdkLogger;
  upload: (url: string, query?: LogQueryInput) => Promise<unknown>;
  mail: ((message: { to: string; subject: string; text: string }) => Promise<void>) | undefined;
}

/** Application messages land in the SDK log under this tag, beside the SDK's own entries. */
const APP_TAG = 'App';
const MAX_APP_MESSAGE_CHARS = 4096;
const text = (message: unknown) => String(message).slice(0, MAX_APP_MESSAGE_CHARS);

export function loggerGroup(deps: LoggerGroupDeps): { readonly logger: AnchorLogger } {
  const { log } = deps;
  const logger: AnchorLogger = {
    ORDER_ASC,
    ORDER_DESC,
    debug: (message) => log.debug(APP_TAG, text(message)),
    info: (message) => log.info(APP_TAG, text(message)),
    notice: (message) => log.info(APP_TAG, text(message)),
    warn: (message) => log.warn(APP_TAG, text(message)),
    error: (message) => log.error(APP_TAG, text(message)),
    getLog: (query) => log.text(query),
    emailLog: async (email, query) => {
      if (!deps.mail) {
        throw new WaypostError(
          'NOT_SUPPORTED',
          'emailLog: this host has no mail sender; use logger.uploadLog(url) or getLog() instead.',
        );
      }
      if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) {
        throw new WaypostError('INVALID_QUERY', `emailLog: ${JSON.stringify(email)} is not an email address.`, 'email');
      }
      await deps.mail({ to: email, subject: 'Waypost log', text: await log.text(query) });
      return true;
    },
    uploadLog: async (url, query) => {
      await deps.upload(url, query);
      return true;
    },
    destroyLog: () => log.destroy(),
  };
  return { logger };
}
