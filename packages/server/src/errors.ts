import type { ServerErrorCode } from './error-codes.js';

/** An error that becomes a JSON reply `{"error": message, "code": code}` with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    /** One of the registered codes (error-codes.ts): a code without its line there does not compile. */
    readonly code: ServerErrorCode,
    message: string,
    /** Extra members of the reply body (for instance the stop command for a deleted device). */
    readonly body: Record<string, unknown> = {},
    /** Headers of the reply (Retry-After on a 429, say). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: ServerErrorCode, message: string): HttpError => new HttpError(400, code, message);
