import { existsSync, readdirSync, rmSync } from 'fs';
import { join } from 'path';
import { Readable } from 'stream';
import { startTestS3, useTestS3Credentials } from '../../../test/support/s3';
import { tempDirs } from '../../../test/support/temp-dirs';
import { FsObjectStore, SYNC_WRITE_BYTES } from './fs-object-store';
import { S3ObjectStore } from './s3-object-store';

/** A stream of `size` patterned bytes made 64 KB at a time, never as a whole. */
function pattern(size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(65536, size - sent);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i++) chunk[i] = (sent + i) & 0xff;
      sent += n;
      this.push(chunk);
    },
  });
}

async function readAll(stream: Readable | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const storeDir = tempDirs('fs-store-');

describe('FsObjectStore', () => {
  it('writes whole files only, reads ranges, refuses keys outside its directory', async () => {
    const dir = storeDir();
    const store = new FsObjectStore(dir);
    expect(await store.put('task_1/v0', pattern(200_000), 'video/mp4')).toBe(200_000);
    expect(readdirSync(join(dir, 'task_1'))).toEqual(['v0']);
    const part = await store.read('task_1/v0', 'bytes=1000-1009');
    expect(part).toMatchObject({ status: 206, contentRange: 'bytes 1000-1009/200000', contentLength: 10 });
    expect([...(await readAll(part!.body))]).toEqual([...Array(10)].map((_, i) => (1000 + i) & 0xff));
    expect(await store.read('task_1/v0', 'bytes=300000-')).toMatchObject({ status: 416 });
    expect(await store.read('task_1/none')).toBeNull();

    // A failed write leaves nothing behind, not even its partial file.
    const broken = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(store.put('task_1/v1', broken, 'video/mp4')).rejects.toThrow('connection reset');
    expect(readdirSync(join(dir, 'task_1'))).toEqual(['v0']);
    expect(() => store.localPath('../escape')).toThrow(/outside/);
  });

  // Small files are written with fs's synchronous calls (the fast path) or through the thread pool: the same files either way.
  describe.each([
    ['synchronously', SYNC_WRITE_BYTES],
    ['through the thread pool', 0],
  ])('a small file from memory, written %s', (_way, syncWriteBytes) => {
    it('is written in one call, whole or not at all', async () => {
      const dir = storeDir();
      const store = new FsObjectStore(dir, syncWriteBytes);
      const bytes = Buffer.from('a small cover image');
      expect(await store.putBytes('task_2/c0', bytes, 'image/png')).toBe(bytes.length);
      expect(readdirSync(join(dir, 'task_2'))).toEqual(['c0']);
      expect(await readAll((await store.read('task_2/c0'))!.body)).toEqual(bytes);
      // The directory is taken by a file of that name: the write fails and leaves no partial file.
      await store.putBytes('task_3', Buffer.from('x'), 'image/png');
      await expect(store.putBytes('task_3/c0', bytes, 'image/png')).rejects.toThrow();
      expect(readdirSync(dir).sort()).toEqual(['task_2', 'task_3']);
    });

    it('makes a directory once: one removed from under the store fails one write, then is made again', async () => {
      const dir = storeDir();
      const store = new FsObjectStore(dir, syncWriteBytes);
      expect(await store.putBytes('ab/task_ab.v0', Buffer.from('abc'), 'video/mp4')).toBe(3);
      rmSync(join(dir, 'ab'), { recursive: true });
      await expect(store.putBytes('ab/task_ab.v1', Buffer.from('abc'), 'video/mp4')).rejects.toThrow(/ENOENT/);
      expect(await store.putBytes('ab/task_ab.v1', Buffer.from('abc'), 'video/mp4')).toBe(3);
      expect(readdirSync(join(dir, 'ab'))).toEqual(['task_ab.v1']);
    });
  });

  it('writes a file up to SYNC_WRITE_BYTES before the call returns, a larger one after it', async () => {
    const dir = storeDir();
    const store = new FsObjectStore(dir, SYNC_WRITE_BYTES);
    const small = store.putBytes('task_5/v0', Buffer.alloc(SYNC_WRITE_BYTES), 'video/mp4');
    const large = store.putBytes('task_5/v1', Buffer.alloc(SYNC_WRITE_BYTES + 1), 'video/mp4');
    expect([existsSync(join(dir, 'task_5', 'v0')), existsSync(join(dir, 'task_5', 'v1'))]).toEqual([true, false]);
    expect(await Promise.all([small, large])).toEqual([SYNC_WRITE_BYTES, SYNC_WRITE_BYTES + 1]);

    const threadPool = new FsObjectStore(storeDir(), 0);
    const pending = threadPool.putBytes('task_6/v0', Buffer.from('abc'), 'video/mp4');
    expect(existsSync(threadPool.localPath('task_6/v0'))).toBe(false);
    expect(await pending).toBe(3);
    expect(existsSync(threadPool.localPath('task_6/v0'))).toBe(true);
  });

  it('creates missing parents: a store directory not made yet, a key more than one level deep', async () => {
    const dir = join(storeDir(), 'not-yet');
    const store = new FsObjectStore(dir);
    expect(await store.putBytes('task_4/v0', Buffer.from('abc'), 'video/mp4')).toBe(3);
    expect(await store.put('a/b/v0', pattern(10), 'video/mp4')).toBe(10);
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['v0']);
  });
});

describe('S3ObjectStore against an S3-compatible server (s3rver)', () => {
  it('streams a multipart upload and reads it back whole and by range', async () => {
    const restore = useTestS3Credentials();
    const s3 = await startTestS3('store-spec');
    const store = new S3ObjectStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
    });
    try {
      // 12 MB: three parts of a multipart upload.
      const size = 12 * 1024 * 1024;
      expect(await store.put('task_1/v0', pattern(size), 'video/mp4')).toBe(size);
      expect(await store.head('task_1/v0')).toMatchObject({ size, contentType: 'video/mp4' });
      const part = await store.read('task_1/v0', `bytes=${size - 5}-`);
      expect(part).toMatchObject({
        status: 206,
        contentRange: `bytes ${size - 5}-${size - 1}/${size}`,
        contentLength: 5,
      });
      expect([...(await readAll(part!.body))]).toEqual([...Array(5)].map((_, i) => (size - 5 + i) & 0xff));
      const whole = await store.read('task_1/v0');
      expect((await readAll(whole!.body)).length).toBe(size);
      expect(await store.presignedUrl('task_1/v0', 60)).toMatch(/X-Amz-Signature=/);
      const small = Buffer.from('a small cover image');
      expect(await store.putBytes('task_1/c0', small, 'image/png')).toBe(small.length);
      expect(await store.head('task_1/c0')).toMatchObject({ size: small.length, contentType: 'image/png' });
      expect(await readAll((await store.read('task_1/c0'))!.body)).toEqual(small);
      await store.delete('task_1/v0');
      expect(await store.head('task_1/v0')).toBeNull();
      expect(await store.read('task_1/v0')).toBeNull();
    } finally {
      store.close();
      await s3.close();
      restore();
    }
  }, 60_000);
});
