import { createHash } from 'node:crypto';

/**
 * A recorded file's fix has one identity, whoever replays it and however often: a name-based UUID
 * (RFC 9562 version 5 layout, SHA-1) of the file's content digest and the fix's place in it. A
 * replay that was killed and starts again records the same uuids, so the server stores each fix once
 * (it deduplicates by uuid) instead of a second copy of everything replayed before the kill.
 */
export function fileDigest(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export function fixUuid(digest: string, index: number): string {
  const bytes = createHash('sha1').update(`waypost-fix:${digest}:${index}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
