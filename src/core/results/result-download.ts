import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { http as redirectingHttp, https as redirectingHttps } from 'follow-redirects';
import * as http from 'http';
import * as https from 'https';
import type { IncomingHttpHeaders, IncomingMessage } from 'http';

/** Redirects a download follows before it fails. */
const MAX_REDIRECTS = 5;
/** Idle keep-alive sockets are closed after this: below common server keep-alive windows (Node: 5 s). */
const IDLE_SOCKET_MS = 4_000;

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
 * Fetches result files from the upstreams (the keeper's downloads, and the files served before a
 * copy is kept) through Node's own HTTP client with follow-redirects, keep-alive sockets of its own,
 * and one time limit for the whole download, answer and body. Not `fetch`: a small file's download
 * costs about 0.4 of `fetch`'s CPU this way (`node bench/downloads.js`), and the mix benchmark keeps
 * two files per task.
 */
@Injectable()
export class ResultDownloads implements OnModuleDestroy {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  };

  /** The upstream's answer once its headers are in; the body must then be read or `close`d. */
  async open(url: string, timeoutMs: number, ask: DownloadRequest = {}): Promise<OpenDownload> {
    const target = new URL(url);
    const client =
      target.protocol === 'https:' ? redirectingHttps : target.protocol === 'http:' ? redirectingHttp : undefined;
    if (!client) throw new Error(`cannot download a ${target.protocol} URL`);
    let request: ReturnType<typeof client.request> | undefined;
    let response: IncomingMessage | undefined;
    const timer = setTimeout(() => {
      const error = new Error(`the download took longer than ${timeoutMs} ms`);
      if (response) response.destroy(error);
      else request?.destroy(error);
    }, timeoutMs);
    const close = (): void => {
      clearTimeout(timer);
      if (response && !response.complete) response.destroy();
    };
    try {
      return await new Promise<OpenDownload>((resolve, reject) => {
        const options = {
          method: ask.method ?? 'GET',
          headers: ask.range ? { range: ask.range } : {},
          agents: this.agents,
          maxRedirects: MAX_REDIRECTS,
        };
        request = client.request(target, options, (answer) => {
          response = answer;
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: answer, close });
        });
        request.once('error', reject);
        request.end();
      });
    } catch (error) {
      close();
      throw error;
    }
  }

  /** Closes the idle sockets. */
  onModuleDestroy(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** Reads a body whole; fails when the connection ends before the declared length arrived. */
export async function readWhole(body: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  if (!body.complete) throw new Error('the upstream closed the connection before the whole file arrived');
  return Buffer.concat(chunks);
}
