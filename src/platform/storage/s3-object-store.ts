import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable, Transform } from 'stream';
import type { ObjectInfo, ObjectRead } from './object-types';

export interface S3StoreOptions {
  bucket: string;
  /** Any S3-compatible endpoint (MinIO, R2, ...); unset: AWS S3 of `region`. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Parts of a multipart upload in flight at once (each part is buffered: 5 MB x this per upload). */
const UPLOAD_QUEUE = 2;

/**
 * Kept files in any S3-compatible store, the choice when several instances run: uploads stream
 * as multipart (`@aws-sdk/lib-storage`, a few 5 MB parts in memory at a time), reads pass a
 * client's `Range` to GetObject.
 */
export class S3ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3StoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
    });
  }

  async put(key: string, body: Readable, contentType: string): Promise<number> {
    let size = 0;
    const counted = body.pipe(
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      }),
    );
    body.once('error', (error) => counted.destroy(error));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: counted, ContentType: contentType },
      queueSize: UPLOAD_QUEUE,
      leavePartsOnError: false,
    });
    await upload.done();
    return size;
  }

  async putBytes(key: string, bytes: Buffer, contentType: string): Promise<number> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: bytes, ContentType: contentType }),
    );
    return bytes.length;
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return {
        size: Number(out.ContentLength ?? 0),
        contentType: out.ContentType ?? 'application/octet-stream',
        etag: out.ETag ?? '',
        lastModified: out.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: string): Promise<ObjectRead | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: key, Range: range || undefined }),
      );
      const contentRange = out.ContentRange;
      const size = contentRange ? Number(contentRange.split('/')[1]) : Number(out.ContentLength ?? 0);
      return {
        status: contentRange ? 206 : 200,
        info: {
          size,
          contentType: out.ContentType ?? 'application/octet-stream',
          etag: out.ETag ?? '',
          lastModified: out.LastModified ?? new Date(0),
        },
        contentRange,
        contentLength: Number(out.ContentLength ?? 0),
        body: out.Body as Readable,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) {
        const info = await this.head(key);
        if (!info) return null;
        return { status: 416, info, contentRange: `bytes */${info.size}`, contentLength: 0 };
      }
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  presignedUrl(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn: seconds,
    });
  }

  close(): void {
    this.client.destroy();
  }
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    error instanceof NotFound ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}
