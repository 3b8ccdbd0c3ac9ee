import * as callbackFs from 'fs';
import { createReadStream, createWriteStream, mkdirSync, promises as fs, renameSync, rmSync, writeFileSync } from 'fs';
import { randomBytes } from 'crypto';
import { dirname, join, resolve, sep } from 'path';
import { Readable } from 'stream';
import { pipeline } from 'stream/promises';
import { promisify } from 'util';
import { fastPathsOn } from '../config/fast-paths';
import { parseByteRange } from './byte-range';
import type { ObjectInfo, ObjectRead } from './object-types';

/**
 * The writes of a kept file go through fs's callback functions, whose `writeFile` does not open a
 * FileHandle and await each of its steps as `fs.promises` does (`node bench/fs-writes.js`).
 */
const mkdir = promisify(callbackFs.mkdir);
const writeFile = promisify(callbackFs.writeFile);
const rename = promisify(callbackFs.rename);

/** How many directories a store remembers having made before it forgets them all and starts again. */
const REMEMBERED_DIRECTORIES = 4096;

/**
 * A file of at most this many bytes is written with fs's synchronous calls: handing a small file's
 * mkdir, write and rename to libuv's thread pool costs more CPU than the calls themselves (a 2 KB
 * file: 177 µs of CPU that way, 45 µs synchronously; 92 and 28 µs when its directory exists:
 * `node bench/fs-writes.js`). Such a write holds the event loop while the kernel creates the file:
 * in a task's life on a local ext4 disk, 0.32 ms at the median and 1.4 ms at p99 a file, while the
 * loop's p99 delay over the run stayed inside its spread (docs/benchmarks.md, "Task life"). Off with
 * `FAST_PATHS=false` or `FAST_PATHS_OFF=sync-small-files` (a store on a slow network disk, where a
 * synchronous write would hold every request).
 */
export const SYNC_WRITE_BYTES = 64 * 1024;

/**
 * Kept files on the local disk, under one directory: written to a temporary name and renamed
 * once complete, so a file is either whole or absent (a crash leaves only a `.part` to overwrite).
 * For one instance, or several sharing a network disk; several machines want the S3 store.
 */
export class FsObjectStore {
  readonly kind = 'fs' as const;
  private readonly root: string;
  /** Directories made (or found) by this store: a write into one of them needs no mkdir. */
  private readonly directories = new Set<string>();
  /** Temporary names: this store's random prefix (instances may share the disk), then a counter. */
  private readonly partPrefix = randomBytes(6).toString('hex');
  private parts = 0;

  constructor(
    directory: string,
    /** Files up to this size are written synchronously; 0 writes every file through the thread pool. */
    private readonly syncWriteBytes = fastPathsOn('sync-small-files') ? SYNC_WRITE_BYTES : 0,
  ) {
    this.root = resolve(directory);
  }

  async put(key: string, body: Readable, _contentType: string): Promise<number> {
    return this.writeWhole(key, async (part) => {
      await pipeline(body, createWriteStream(part, { flags: 'w' }));
      return (await fs.stat(part)).size;
    });
  }

  async putBytes(key: string, bytes: Buffer, _contentType: string): Promise<number> {
    if (bytes.length <= this.syncWriteBytes) return this.writeWholeNow(key, bytes);
    return this.writeWhole(key, async (part) => {
      await writeFile(part, bytes);
      return bytes.length;
    });
  }

  /** Writes `key` through a temporary file renamed once `write` has filled it; a failed write leaves nothing. */
  private async writeWhole(key: string, write: (part: string) => Promise<number>): Promise<number> {
    const path = this.localPath(key);
    const directory = dirname(path);
    if (!this.directories.has(directory)) {
      await makeDirectory(directory);
      this.remember(directory);
    }
    const part = this.partOf(path);
    try {
      const size = await write(part);
      await rename(part, path);
      return size;
    } catch (error) {
      this.forgetIfGone(directory, error);
      await fs.rm(part, { force: true });
      throw error;
    }
  }

  /** `writeWhole` for a small file, with fs's synchronous calls (`SYNC_WRITE_BYTES`). */
  private writeWholeNow(key: string, bytes: Buffer): number {
    const path = this.localPath(key);
    const directory = dirname(path);
    if (!this.directories.has(directory)) {
      makeDirectoryNow(directory);
      this.remember(directory);
    }
    const part = this.partOf(path);
    try {
      writeFileSync(part, bytes);
      renameSync(part, path);
      return bytes.length;
    } catch (error) {
      this.forgetIfGone(directory, error);
      rmSync(part, { force: true });
      throw error;
    }
  }

  private remember(directory: string): void {
    if (this.directories.size >= REMEMBERED_DIRECTORIES) this.directories.clear();
    this.directories.add(directory);
  }

  private partOf(path: string): string {
    return `${path}.${this.partPrefix}${(this.parts++).toString(36)}.part`;
  }

  /** The directory was removed from under the store: the next attempt makes it again. */
  private forgetIfGone(directory: string, error: unknown): void {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.directories.delete(directory);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await fs.stat(this.localPath(key));
      return {
        size: stat.size,
        contentType: 'application/octet-stream',
        etag: `W/"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`,
        lastModified: stat.mtime,
      };
    } catch {
      return null;
    }
  }

  async read(key: string, range?: string): Promise<ObjectRead | null> {
    const info = await this.head(key);
    if (!info) return null;
    const span = parseByteRange(range, info.size);
    if (span === 'unsatisfiable') return { status: 416, info, contentRange: `bytes */${info.size}`, contentLength: 0 };
    if (!span) return { status: 200, info, contentLength: info.size, body: createReadStream(this.localPath(key)) };
    return {
      status: 206,
      info,
      contentRange: `bytes ${span.start}-${span.end}/${info.size}`,
      contentLength: span.end - span.start + 1,
      body: createReadStream(this.localPath(key), { start: span.start, end: span.end }),
    };
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.localPath(key), { force: true });
  }

  /** Keys are the gateway's own (`<task id>/<slot>`); anything escaping the directory is refused. */
  localPath(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`object key outside the store: ${key}`);
    return path;
  }
}

/**
 * Creates a file's directory. A key's directory is one level under the store's root, so a plain
 * mkdir almost always does; the recursive form only runs when a parent is missing.
 */
async function makeDirectory(directory: string): Promise<void> {
  try {
    await mkdir(directory);
  } catch (error) {
    if (!parentMissing(error)) return;
    await mkdir(directory, { recursive: true });
  }
}

/** `makeDirectory` with fs's synchronous calls. */
function makeDirectoryNow(directory: string): void {
  try {
    mkdirSync(directory);
  } catch (error) {
    if (parentMissing(error)) mkdirSync(directory, { recursive: true });
  }
}

/** A plain mkdir's failure: false when the directory exists, true when a parent is missing; else thrown. */
function parentMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return false;
  if (code !== 'ENOENT') throw error;
  return true;
}
