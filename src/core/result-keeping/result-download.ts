import type { IncomingHttpHeaders, IncomingMessage } from 'http';

/** An upstream's answer to a download: its status and headers, and the body to read or give up. */
export interface OpenDownload {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
  /** Ends the time limit, and drops the connection when the body was not read to its end. */
  close(): void;
}

/** What a download asks besides the file: HEAD for its headers only, a byte range. */
export interface DownloadRequest {
  readonly method?: 'GET' | 'HEAD';
  readonly range?: string;
}

/**
 * How the keeper downloads result files, and how files not kept yet are served: the upstream's
 * answer once its headers are in (redirects followed), with one time limit for the whole download,
 * answer and body. The body must then be read or `close`d. The upstream floor implements it.
 */
export abstract class ResultDownloads {
  abstract open(url: string, timeoutMs: number, ask?: DownloadRequest): Promise<OpenDownload>;
}

/** Reads a body whole; fails when the connection ends before the declared length arrived. */
export async function readWhole(body: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  if (!body.complete) throw new Error('the upstream closed the connection before the whole file arrived');
  return Buffer.concat(chunks);
}
