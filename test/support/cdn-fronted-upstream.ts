import { request } from 'node:http';
import { startLoopbackServer } from './switchable-upstream';

/** What the CDN part answers for a result file: the simulator's file, or a refusal as a CDN words it. */
export type FileAnswer = 'serve' | 'refuse';

export interface CdnFrontedUpstream {
  readonly baseUrl: string;
  files: FileAnswer;
  /** Result-file requests received. */
  fileRequests: number;
  close(): Promise<void>;
}

const REFUSAL = '<Error><Code>AccessDenied</Code><Message>Access denied</Message></Error>';

/**
 * One loopback origin in front of a simulator vendor, as a vendor with its own CDN looks to the
 * gateway: API calls pass through to the simulator, result links in its answers are rewritten to
 * this origin, and files are served (or refused with a 403, as a hotlink-protected or expired link
 * is) from here. Idle connections are kept 65 s, as CDNs and load balancers keep them, not Node's 5 s.
 */
export async function startCdnFrontedUpstream(targetBaseUrl: string): Promise<CdnFrontedUpstream> {
  const target = new URL(targetBaseUrl);
  const state: CdnFrontedUpstream = { baseUrl: '', files: 'serve', fileRequests: 0, close: () => loopback.close() };
  const loopback = await startLoopbackServer((req, body, res) => {
    const isFile = (req.url ?? '').startsWith('/assets/');
    if (isFile) state.fileRequests++;
    if (isFile && state.files === 'refuse')
      return void res
        .writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(REFUSAL) })
        .end(REFUSAL);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => {
          let payload = Buffer.concat(parts);
          if ((answer.headers['content-type'] ?? '').includes('json'))
            payload = Buffer.from(payload.toString('utf8').split(target.origin).join(state.baseUrl));
          const headers = { ...answer.headers, 'content-length': String(payload.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers).end(payload);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
  loopback.server.keepAliveTimeout = 65_000;
  return Object.assign(state, { baseUrl: loopback.baseUrl });
}
