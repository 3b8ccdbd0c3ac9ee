import { Injectable } from '@nestjs/common';
import { http as redirectingHttp, https as redirectingHttps } from 'follow-redirects';
import type { IncomingHttpHeaders, IncomingMessage } from 'http';
import { AgentPair, UpstreamAgents } from './upstream-agents';

/** Redirects a download follows before it fails. */
const MAX_REDIRECTS = 5;

/** An upstream's answer to a file download: its status and headers, and the body to read or give up. */
export interface FileDownload {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
  /**
   * Ends the time limit and gives the connection back: reused when the whole body had arrived
   * (read or not), dropped when part of it was still on the way.
   */
  close(): void;
}

/** What a download asks besides the file: HEAD for its headers only, a byte range. */
export interface FileRequest {
  readonly method?: 'GET' | 'HEAD';
  readonly range?: string;
}

/**
 * Downloads files from the upstreams (kept results, and files served before a copy is kept) through
 * Node's own HTTP client with follow-redirects, on the upstream agents' file pool (keep-alive,
 * connect time limit; never the sockets of API calls), with one time limit for the whole download,
 * answer and body. Not `fetch`: a small file's download costs 0.4 to 0.6 of `fetch`'s CPU this way
 * (`node bench/downloads.js`).
 */
@Injectable()
export class FileDownloads {
  private readonly agents: AgentPair;

  constructor(agents: UpstreamAgents) {
    this.agents = { http: agents.files.http, https: agents.files.https };
  }

  /** The upstream's answer once its headers are in; the body must then be read or `close`d. */
  async open(url: string, timeoutMs: number, ask: FileRequest = {}): Promise<FileDownload> {
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
      if (!response || response.readableEnded) return;
      // A socket is freed only once its answer has been read to the end: an unread answer (a refusal,
      // a HEAD, a file not kept) would otherwise hold it until the server closes it. Drained when it
      // is all in, else dropped.
      if (response.complete) response.resume();
      else response.destroy();
    };
    try {
      return await new Promise<FileDownload>((resolve, reject) => {
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
}
