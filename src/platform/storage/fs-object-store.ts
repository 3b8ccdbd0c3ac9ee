import * as callbackFs from 'fs';
import { createReadStream, createWriteStream, promises as fs } from 'fs';
import { randomBytes } from 'crypto';
import { dirname, join, resolve, sep } from 'path';
import { Readable } from 'stream';
import { pipeline } from 'stream/promises';
import { promisify } from 'util';
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

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async put(key: string, body: Readable, _contentType: string): Promise<number> {
    return this.writeWhole(key, async (part) => {
      await pipeline(body, createWriteStream(part, { flags: 'w' }));
      return (await fs.stat(part)).size;
    });
  }

  async putBytes(key: string, bytes: Buffer, _contentType: string): Promise<number> {
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
      if (this.directories.size >= REMEMBERED_DIRECTORIES) this.directories.clear();
      this.directories.add(directory);
    }
    const part = `${path}.${this.partPrefix}${(this.parts++).toString(36)}.part`;
    try {
      const size = await write(part);
      await rename(part, path);
      return size;
    } catch (error) {
      // The directory was removed from under the store: the next attempt makes it again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.directories.delete(directory);
      await fs.rm(part, { force: true });
      throw error;
    }
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
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT') throw error;
    await mkdir(directory, { recursive: true });
  }
}
