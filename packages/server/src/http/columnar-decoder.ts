import { Transform, type TransformCallback } from 'node:stream';
import { inflateRaw } from 'node:zlib';
import { CodecError, type ColumnarVersion, decodeColumnar } from '@waypost/sdk/internal';
import { HttpError } from '../errors.js';

/** What a decoder's output may be: its bytes (checked again as they stream out), and, for JSON, its objects. */
export interface DecodedLimits {
  bytes: number;
  maxObjects?: number;
}

/**
 * The columnar request codings (`Content-Encoding: x-waypost-columnar` for version 1 of the
 * columnar bytes, `x-waypost-columnar-2` and `-3` for versions 2 and 3; docs/wire-format.md): raw deflate of them, decoded here to the JSON text the SDK would have sent plain,
 * which then goes through the same JSON parser, ingest, dedup and ledger as any body. Bounded at
 * every step by `limit`: the deflated input kept (a deflate stream is never much larger than what
 * it holds), the inflated columnar bytes (zlib stops at maxOutputLength), and the decoded text,
 * checked as it is written (a few bytes that claim a million rows are refused before any row).
 * And by what the text will hold (`maxObjects`: the server's records limit, scaled): the rows a
 * table declares are counted before any is built. The inflation runs off the event loop, in
 * zlib's thread pool; the decode is bounded by the limits above.
 */
export class ColumnarDecoder extends Transform {
  private readonly chunks: Buffer[] = [];
  private received = 0;

  private readonly limit: number;

  constructor(
    private readonly limits: DecodedLimits,
    private readonly token: string,
    private readonly version: ColumnarVersion,
  ) {
    super();
    this.limit = limits.bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit + 1024) return callback(tooLarge(this.limit));
    this.chunks.push(chunk);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    inflateRaw(Buffer.concat(this.chunks), { maxOutputLength: this.limit }, (error, columnar) => {
      if (!error) return this.decode(columnar, callback);
      callback(
        (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
          ? tooLarge(this.limit)
          : new HttpError(400, 'INVALID_ENCODING', `The body is not valid ${this.token} data: ${error.message}`),
      );
    });
  }

  private decode(columnar: Buffer, callback: TransformCallback): void {
    // Each token names one version: bytes of another are this token's invalid data.
    if (columnar.length > 0 && columnar[0] !== this.version) {
      return callback(this.invalid(`version ${columnar[0]} is not ${this.version}`));
    }
    try {
      callback(null, Buffer.from(decodeColumnar(columnar, this.limit, this.limits.maxObjects)));
    } catch (error) {
      if (!(error instanceof CodecError)) return callback(error as Error);
      if (error.code === 'BODY_TOO_LARGE') return callback(tooLarge(this.limit));
      callback(
        error.code === 'TOO_MANY_VALUES' ? new HttpError(413, error.code, error.message) : this.invalid(error.message),
      );
    }
  }

  private invalid(reason: string): HttpError {
    return new HttpError(400, 'INVALID_COLUMNAR', `The body is not valid ${this.token} data: ${reason}`);
  }
}

const tooLarge = (limit: number): HttpError =>
  new HttpError(413, 'BODY_TOO_LARGE', `The body is larger than this server's limit of ${limit} bytes (decompressed)`);
