import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import { COLUMNAR_TOKENS } from '@waypost/sdk/internal';
import { HttpError } from '../errors.js';
import { ColumnarDecoder } from './columnar-decoder.js';

/** Each coding's decoder; `limit` is the decoded body's (ByteLimit checks it as it streams out). */
const DECODERS: Record<string, (limit: number) => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
  ...Object.fromEntries(
    Object.entries(COLUMNAR_TOKENS).map(([token, version]) => [
      token,
      (limit: number) => new ColumnarDecoder(limit, token, version),
    ]),
  ),
};

export const SUPPORTED_ENCODINGS = Object.keys(DECODERS);

export const tooLarge = (limit: number, what = 'The body'): HttpError =>
  new HttpError(413, 'BODY_TOO_LARGE', `${what} is larger than this server's limit of ${limit} bytes (decompressed)`);

/** Counts bytes through it and fails with 413 the moment they pass `limit`. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(
    private readonly limit: number,
    private readonly what: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) callback(tooLarge(this.limit, this.what));
    else callback(null, chunk);
  }
}

/**
 * The decoded body of a request sent with Content-Encoding, inflated as a stream and refused with
 * 413 as soon as its output passes `limit`: a small gzip bomb can never grow in memory or hold the
 * event loop, whatever it would inflate to. The compressed input left unread is drained and
 * discarded, so the reply reaches the client. `receivedEncodedLength` is how
 * Fastify checks the compressed length against Content-Length.
 */
export function decodedBody(
  source: Readable,
  encoding: string,
  limit: number,
  what = 'The body',
): Readable & { receivedEncodedLength: number } {
  const decoder = DECODERS[encoding.trim().toLowerCase()];
  if (!decoder) {
    throw new HttpError(
      415,
      'UNSUPPORTED_ENCODING',
      `Content-Encoding ${encoding} is not supported; use ${SUPPORTED_ENCODINGS.join(', ')} or none`,
    );
  }
  const inflater = decoder(limit) as Gunzip;
  const output = new ByteLimit(limit, what) as ByteLimit & { receivedEncodedLength: number };
  output.receivedEncodedLength = 0;
  const stop = (error: Error) => {
    source.unpipe(inflater);
    source.resume();
    inflater.destroy();
    output.destroy(error);
  };
  source.on('data', (chunk: Buffer) => {
    output.receivedEncodedLength += chunk.length;
  });
  source.on('error', stop);
  inflater.on('error', (error) =>
    stop(
      error instanceof HttpError
        ? error
        : new HttpError(400, 'INVALID_ENCODING', `The body is not valid ${encoding} data: ${error.message}`),
    ),
  );
  output.on('error', () => stop(output.errored ?? new Error('aborted')));
  source.pipe(inflater).pipe(output);
  return output;
}

/** Inflates gzip data only to check it, discarding the output: resolves with its size, 413 past `limit`. */
export async function checkGzip(data: Buffer, limit: number, what: string): Promise<number> {
  const inflater = createGunzip();
  let size = 0;
  return new Promise<number>((resolve, reject) => {
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        inflater.destroy();
        reject(tooLarge(limit, what));
      }
    });
    inflater.on('end', () => resolve(size));
    inflater.on('error', (error) => reject(error));
    inflater.end(data);
  });
}
