import type { Readable } from 'stream';

/** What a store knows of one kept object. */
export interface ObjectInfo {
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
}

/** A read of a kept object, whole or one byte range, as the store answered it. */
export interface ObjectRead {
  /** 200 whole, 206 the range, 416 the range cannot be satisfied (no body). */
  status: 200 | 206 | 416;
  info: ObjectInfo;
  /** With 206: `bytes a-b/size`; with 416: `bytes * /size`. */
  contentRange?: string;
  contentLength: number;
  body?: Readable;
}
