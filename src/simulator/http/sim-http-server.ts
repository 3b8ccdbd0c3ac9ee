import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { SIM_ASSETS } from '../assets';
import { registerResultTtl, resultTtlFromEnv, serveAsset, unregisterResultTtl } from '../result-links';
import { Chaos, ChaosKind, ChaosStatusWords, mutateBody } from '../chaos';
import { RecordedRequest, SimFamily } from '../sim-types';
import { NativeErrors, SimAnswer, SimHandler, SimRequest } from './sim-answer';

/** Generous: kl editing images may arrive as Base64 (10 MB each). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface SimServerOptions {
  family: SimFamily;
  host: string;
  port: number;
  /** Every request received is pushed here before it is handled (auth failures included). */
  requests: RecordedRequest[];
  errors: NativeErrors;
  /** Where its answers carry status words (for the status faults). */
  statusWords: ChaosStatusWords;
  /** Built once the port is known, because answers carry absolute asset URLs. */
  createHandler(baseUrl: string): SimHandler;
  /** The fault injector in force, if any (read per request, so it can be switched while running). */
  chaos?: () => Chaos | undefined;
  /** How long result links stay valid (ms); default SIM_RESULT_TTL_MS, else 10 minutes. */
  resultTtlMs?: () => number;
}

export interface SimServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** One loopback HTTP server speaking one family's JSON protocol, plus the shared /assets files. */
export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  // Set once the port is known (the handler's answers carry the simulator's own URLs).
  const ready: { handler?: SimHandler } = {};
  const server = http.createServer((req, res) => {
    void serve(req, res).catch(() => res.destroy());
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://simulator.local');
    const raw = await readBody(req);
    const parsed = parseJson(raw);
    options.requests.push({
      family: options.family,
      method,
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: parsed.ok ? parsed.value : raw.toString('utf8'),
    });

    const asset = SIM_ASSETS.get(url.pathname);
    if (asset && (method === 'GET' || method === 'HEAD')) return serveAsset(req, res, url, asset);

    const chaos = options.chaos?.();
    const fault = chaos?.pick();
    if (chaos && fault === 'error5xx') {
      chaos.record(fault);
      writeAnswer(res, options.errors.internal('simulated upstream failure (chaos)'));
      return;
    }

    const request: SimRequest = {
      method,
      pathname: url.pathname,
      query: url.searchParams,
      headers: { ...req.headers },
      body: parsed.ok ? parsed.value : undefined,
      bodyError: parsed.ok ? undefined : parsed.error,
    };
    let answer: SimAnswer;
    try {
      answer = ready.handler ? await ready.handler(request) : options.errors.internal('simulator not ready');
    } catch (error) {
      answer = options.errors.internal(`simulator failure: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (chaos && fault) await writeFaulty(res, answer, fault, chaos, options.statusWords);
    else writeAnswer(res, answer);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const baseUrl = originOf(options.host, (server.address() as AddressInfo).port);
  const defaultTtl = resultTtlFromEnv();
  registerResultTtl(baseUrl, options.resultTtlMs ?? (() => defaultTtl));
  ready.handler = options.createHandler(baseUrl);

  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging (`sim:hang`) and keep-alive sockets would otherwise hold close() open forever.
        unregisterResultTtl(baseUrl);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function writeAnswer(res: http.ServerResponse, answer: SimAnswer): void {
  if (answer.kind === 'hang') return; // Leave the response open; close() destroys the socket.
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends a handled request's answer with a fault (see chaos.ts); counts the fault only when applied. */
async function writeFaulty(
  res: http.ServerResponse,
  answer: SimAnswer,
  fault: ChaosKind,
  chaos: Chaos,
  statusWords: ChaosStatusWords,
): Promise<void> {
  if (answer.kind === 'hang') return;
  const text = JSON.stringify(answer.body);
  switch (fault) {
    case 'timeout':
      chaos.record(fault);
      return; // Never answered; close() destroys the socket.
    case 'reset': {
      chaos.record(fault);
      res.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
      return;
    }
    case 'garbled': {
      chaos.record(fault);
      const garbled = `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}\u0000}{"`;
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(garbled),
      });
      res.end(garbled);
      return;
    }
    case 'slow':
      chaos.record(fault);
      await new Promise((resolve) => setTimeout(resolve, chaos.slowMs));
      writeAnswer(res, answer);
      return;
    default: {
      const mutated = mutateBody(fault, answer.body, statusWords);
      if (mutated.changed) chaos.record(fault);
      writeAnswer(res, { kind: 'json', status: answer.status, body: mutated.body });
    }
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; error: string };

function parseJson(raw: Buffer): ParsedBody {
  if (raw.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { ok: false, error: 'request body is not valid JSON' };
  }
}

/** The URL clients should use: a wildcard bind address is reached through loopback. */
function originOf(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `http://[${reachable}]:${port}` : `http://${reachable}:${port}`;
}
