import type { Readable } from 'stream';
import type { ObjectInfo, ObjectRead } from '../../platform/storage/object-types';

/**
 * Where kept result files live: the port the keep worker, the retention sweeper and the serving
 * routes use (the fs and S3 stores are in platform/storage). Large writes stream: no implementation
 * may hold a large file in memory.
 */
export abstract class ObjectStore {
  abstract readonly kind: 'fs' | 's3';
  /** Writes `body` under `key` as one object, visible only once complete; its size in bytes. */
  abstract put(key: string, body: Readable, contentType: string): Promise<number>;
  /** Writes a small file already read into memory, in one call, visible only once complete. */
  abstract putBytes(key: string, bytes: Buffer, contentType: string): Promise<number>;
  abstract head(key: string): Promise<ObjectInfo | null>;
  /** `range`: a client's `Range` header, passed on as it is. */
  abstract read(key: string, range?: string): Promise<ObjectRead | null>;
  abstract delete(key: string): Promise<void>;
  /** The local file of an object, when the store keeps it on this machine's disk (served with `send`). */
  abstract localPath?(key: string): string;
  /** A short-lived URL at the store itself, when it can give one (S3). */
  abstract presignedUrl?(key: string, seconds: number): Promise<string>;
  /** Releases the store's connections (S3). */
  abstract close?(): void;
}
