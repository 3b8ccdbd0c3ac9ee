/**
 * Checks an image given by URL the way a Base64 one is checked, from its first bytes: format,
 * pixels and aspect ratio from the header (image-size), size from Content-Range or Content-Length;
 * a whole answer without either (chunked) is read to its end and its bytes counted, only the first
 * kept, so it cannot pass the size limit by not declaring a size.
 * One GET with a Range header, a short time-out and a byte cap, through agents that refuse
 * loopback, private, link-local and metadata addresses (checked on the resolved address at every
 * connection, redirects included), so a caller cannot make the gateway reach its own network.
 * Unreachable, too slow, refused or wrong: a 400 naming the field.
 */
import type { Provider } from '@nestjs/common';
import axios, { AxiosResponse } from 'axios';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppConfig } from '../../platform/config/app-config';
import { GatewayError } from '../../platform/errors';
import { ImageLimits, ImageProbe, checkImageProbe, imageTooLarge, probeImage } from './media-probe';

/** Whole fetch, headers and bytes: a reference the upstream could not fetch promptly either is no use. */
export const MEDIA_FETCH_TIMEOUT_MS = 3000;
/** Bytes read at most; image headers sit in the first few KB (JPEG: after its EXIF segments). */
export const MEDIA_FETCH_MAX_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

export interface RemoteMediaProbeOptions {
  /** Reach loopback and private addresses too (tests and local demos only). */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

interface ImageHead {
  bytes: Buffer;
  /**
   * The whole file's size: as the server declares it, or counted to the end of a whole answer
   * that declares none (chunked); null for a partial answer of unknown total.
   */
  totalBytes: number | null;
}

export class RemoteMediaProbe {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(options: RemoteMediaProbeOptions) {
    this.httpAgent = options.allowPrivate ? new HttpAgent() : new RequestFilteringHttpAgent();
    this.httpsAgent = options.allowPrivate ? new HttpsAgent() : new RequestFilteringHttpsAgent();
    this.timeoutMs = options.timeoutMs ?? MEDIA_FETCH_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? MEDIA_FETCH_MAX_BYTES;
  }

  /** Reads the image's first bytes and checks them against `limits`; throws a 400 naming `param`. */
  async checkImageUrl(url: string, limits: ImageLimits, param: string): Promise<ImageProbe> {
    // A PNG's transparency shows in chunks before its pixel data, so that rule needs more than the header.
    const enough = (bytes: Buffer) => {
      const probe = probeImage(bytes);
      return probe !== null && (limits.allowPngTransparency || probe.format !== 'png');
    };
    const head = await this.readHead(url, param, limits.maxBytes, enough);
    if (head.totalBytes !== null && head.totalBytes > limits.maxBytes) throw imageTooLarge(param, limits.maxBytes);
    return checkImageProbe(probeImage(head.bytes), limits, param);
  }

  private async readHead(
    url: string,
    param: string,
    maxTotal: number,
    enough: (bytes: Buffer) => boolean,
  ): Promise<ImageHead> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: AxiosResponse<Readable>;
    try {
      response = await axios.get<Readable>(url, {
        responseType: 'stream',
        signal,
        maxRedirects: MAX_REDIRECTS,
        proxy: false,
        decompress: false,
        httpAgent: this.httpAgent,
        httpsAgent: this.httpsAgent,
        validateStatus: () => true,
        headers: {
          range: `bytes=0-${this.maxBytes - 1}`,
          accept: 'image/*',
          'accept-encoding': 'identity',
          'user-agent': 'video-gateway-media-probe/1',
        },
      });
    } catch (error) {
      throw unreachable(param, signal.aborted ? this.timedOut() : reasonOf(error));
    }
    const stream = response.data;
    try {
      if (response.status !== 200 && response.status !== 206) throw unreachable(param, `HTTP ${response.status}`);
      const declared = declaredTotal(response);
      if (declared !== null && declared > maxTotal) throw imageTooLarge(param, maxTotal);
      // A whole file (200) of no declared size is counted to its end: only its first bytes are kept.
      const counting = declared === null && response.status === 200;
      const chunks: Buffer[] = [];
      let kept = 0;
      let read = 0;
      let headDone = false;
      try {
        for await (const chunk of stream) {
          const bytes = chunk as Buffer;
          read += bytes.length;
          if (!headDone) {
            chunks.push(bytes);
            kept += bytes.length;
            headDone = kept >= this.maxBytes || enough(Buffer.concat(chunks, kept));
          }
          if (counting && read > maxTotal) throw imageTooLarge(param, maxTotal);
          if (headDone && !counting) break;
        }
      } catch (error) {
        if (error instanceof GatewayError) throw error;
        throw unreachable(param, signal.aborted ? this.timedOut() : reasonOf(error));
      }
      const bytes = Buffer.concat(chunks, kept).subarray(0, this.maxBytes);
      return { bytes, totalBytes: counting ? read : declared };
    } finally {
      stream.destroy();
    }
  }

  private timedOut(): string {
    return `no answer within ${this.timeoutMs / 1000} s`;
  }
}

/** The application's probe: private addresses only when the operator allows them. */
export const REMOTE_MEDIA_PROBE: Provider = {
  provide: RemoteMediaProbe,
  useFactory: (config: AppConfig) => new RemoteMediaProbe({ allowPrivate: config.MEDIA_FETCH_ALLOW_PRIVATE }),
  inject: [AppConfig],
};

/** Whole size: `Content-Range: bytes 0-N/TOTAL` on a 206, `Content-Length` on a 200. */
function declaredTotal(response: AxiosResponse): number | null {
  const headers = response.headers as Record<string, string | undefined>;
  if (response.status === 206) {
    const total = /\/(\d+)\s*$/.exec(headers['content-range'] ?? '');
    return total ? Number(total[1]) : null;
  }
  const length = headers['content-length'];
  return length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
}

/** Why a fetch failed, in words that disclose nothing of the gateway's network beyond "not allowed". */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/is not allowed/i.test(message)) return 'its address is loopback, private, link-local or metadata';
  if (/redirect/i.test(message)) return `more than ${MAX_REDIRECTS} redirects`;
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name does not resolve';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  return 'the connection failed';
}

function unreachable(param: string, why: string): GatewayError {
  return GatewayError.invalid(
    `${param}: the image could not be fetched (${why}); give a URL the gateway can reach, or the image as Base64.`,
    param,
  );
}
