import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import { COLUMNAR_TOKENS } from '@waypost/sdk/internal';
import { HttpError } from '../errors.js';
import { ColumnarDecoder, type DecodedLimits } from './columnar-decoder.js';
import type { JsonShapeScan } from './json-shape.js';

/** Each coding's decoder. */
const DECODERS: Record<string, (limits: DecodedLimits) => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
  ...Object.fromEntries(
    Object.entries(COLUMNAR_TOKENS).map(([token, version]) => [
      token,
      (limits: DecodedLimits) => new ColumnarDecoder(limits, token, version),
    ]),
  ),
};

export const SUPPORTED_ENCODINGS = Object.keys(DECODERS);

export const tooLarge = (limit: number, what = 'The body'): HttpError =>
  new HttpError(413, 'BODY_TOO_LARGE', `${what} is larger than this server's limit of ${limit} bytes (decompressed)`);

/**
 * Counts bytes through it and fails with 413 the moment they pass `limit`; with a JSON shape
 * scan, fails the moment the text holds more objects, values or nesting than the scan allows.
 */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(
    private readonly limit: number,
    private readonly what: string,
    private readonly scan: JsonShapeScan | undefined,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) return callback(tooLarge(this.limit, this.what));
    try {
      this.scan?.feed(chunk);
    } catch (error) {
      return callback(error as Error);
    }
    callback(null, chunk);
  }
}

/**
 * The decoded body of a request sent with Content-Encoding, inflated as a stream and refused with
 * 413 as soon as its output passes `limit`: a small gzip bomb can never grow in memory or hold the
 * event loop, whatever it would inflate to. A JSON body is also scanned as it is decoded (`scan`):
 * one that decodes to more objects or nesting than a request may hold is refused at the first
 * chunk past the limit, long before it is parsed. The compressed input left unread is drained and
 * discarded, so the reply reaches the client. `receivedEncodedLength` is how
 * Fastify checks the compressed length against Content-Length.
 */
export function decodedBody(
  source: Readable,
  encoding: string,
  limit: number,
  what = 'The body',
  scan?: { shape: JsonShapeScan; maxObjects: number },
): Readable & { receivedEncodedLength: number } {
  const decoder = DECODERS[encoding.trim().toLowerCase()];
  if (!decoder) {
    throw new HttpError(
      415,
      'UNSUPPORTED_ENCODING',
      `Content-Encoding ${encoding} is not supported; use ${SUPPORTED_ENCODINGS.join(', ')} or none`,
    );
  }
  const inflater = decoder({ bytes: limit, maxObjects: scan?.maxObjects }) as Gunzip;
  const output = new ByteLimit(limit, what, scan?.shape) as ByteLimit & { receivedEncodedLength: number };
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
