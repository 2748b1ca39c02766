import type { FastifyError } from 'fastify';
import { isServerErrorCode, type ServerErrorCode } from '../error-codes.js';
import { HttpError } from '../errors.js';

export interface ErrorReply {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Errors of the multipart parser (busboy) about the body itself: the client's fault, so 400. */
const MULTIPART_CODES = new Set([
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_PROTO_VIOLATION',
  'FST_PARTS_LIMIT',
  'FST_FILES_LIMIT',
  'FST_FIELDS_LIMIT',
]);

/** The JSON error body for anything thrown: HttpError as is, Fastify's own errors mapped to stable codes. */
export function errorReply(error: FastifyError, bodyLimit: number): ErrorReply {
  const reply = (status: number, code: ServerErrorCode, message: string, headers: Record<string, string> = {}) => ({
    status,
    body: { error: message, code },
    headers,
  });
  if (error instanceof HttpError)
    return {
      status: error.statusCode,
      body: { error: error.message, code: error.code, ...error.body },
      headers: error.headers,
    };
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE') {
    return reply(413, 'BODY_TOO_LARGE', `The body is larger than this server's limit of ${bodyLimit} bytes`);
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return reply(400, 'MALFORMED_JSON', `Malformed JSON body: ${error.message}`);
  }
  if (error.validation) {
    // A route's JSON schema refused the request.
    return reply(400, error.validationContext === 'body' ? 'INVALID_BODY' : 'INVALID_PARAMETER', error.message);
  }
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return reply(400, 'EMPTY_BODY', 'The body is empty; send JSON');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_INVALID_TYPE') {
    return reply(415, 'UNSUPPORTED_MEDIA_TYPE', error.message);
  }
  if (error.code !== undefined && MULTIPART_CODES.has(error.code)) {
    return reply(400, 'MALFORMED_MULTIPART', `Malformed multipart body: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  // Fastify's other refusals (a malformed URL, say) answer a registered code: BAD_REQUEST and Fastify's message.
  if (status < 500) return reply(status, isServerErrorCode(error.code) ? error.code : 'BAD_REQUEST', error.message);
  return reply(500, 'INTERNAL', 'Internal server error');
}
