/**
 * Test media built in code (no binaries in the repository): minimal but well-formed PNG, BMP,
 * JPEG, WEBP, GIF headers, an MP4 movie header and an AVI header, plus data-URL wrapping. Used by the specs of
 * the media rules; the probes read headers only, so large declared sizes cost nothing.
 */
import { IncomingMessage, ServerResponse, createServer } from 'http';
import type { AddressInfo, Socket } from 'net';
import { deflateSync } from 'zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export interface PngOptions {
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. Default 2. */
  colourType?: 0 | 2 | 3 | 4 | 6;
  /** Adds a tRNS chunk (transparency without an alpha channel). */
  trns?: boolean;
  /** Pads the file after IEND to exactly this many bytes. */
  padTo?: number;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * A PNG of `width` x `height`. Up to a million pixels the pixel data is real (all zero);
 * above that the IDAT is a stub, since only the header is ever probed.
 */
export function png(width: number, height: number, options: PngOptions = {}): Buffer {
  const colourType = options.colourType ?? 2;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = colourType;
  const rowBytes = 1 + width * CHANNELS[colourType];
  const raw = width * height <= 1_000_000 ? Buffer.alloc(rowBytes * height) : Buffer.alloc(rowBytes);
  const chunks = [pngChunk('IHDR', ihdr)];
  if (colourType === 3) chunks.push(pngChunk('PLTE', Buffer.from([0, 0, 0])));
  if (options.trns)
    chunks.push(pngChunk('tRNS', colourType === 3 ? Buffer.from([0]) : Buffer.alloc(colourType === 2 ? 6 : 2)));
  chunks.push(pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0)));
  const file = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
  return options.padTo ? Buffer.concat([file, Buffer.alloc(options.padTo - file.length)]) : file;
}

/** A 24-bit BMP header (BITMAPINFOHEADER) with one row of pixel data. */
export function bmp(width: number, height: number): Buffer {
  const row = Buffer.alloc(Math.ceil((width * 3) / 4) * 4);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'ascii');
  header.writeUInt32LE(54 + row.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  return Buffer.concat([header, row]);
}

/** SOI, a JFIF APP0 segment, a baseline SOF0 frame header and EOI. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ]);
  const sof0 = Buffer.alloc(19);
  sof0.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  sof0.set([0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01], 9);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
}

/** An extended (VP8X) WEBP header. */
export function webp(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'ascii');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(width - 1, 12, 3);
  vp8x.writeUIntLE(height - 1, 15, 3);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(4 + vp8x.length, 4);
  head.write('WEBP', 8, 'ascii');
  return Buffer.concat([head, vp8x]);
}

/** A GIF89a logical screen descriptor (a format the gateway does not accept). */
export function gif(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'ascii');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, body]);
}

/** ftyp + moov/mvhd (version 0) of `seconds` length; `brand` 'qt  ' makes a MOV. */
export function mp4(seconds: number, brand = 'isom'): Buffer {
  const ftyp = box('ftyp', Buffer.from(brand, 'ascii'), Buffer.alloc(4), Buffer.from('isommp41', 'ascii'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 16); // duration
  return Buffer.concat([ftyp, box('moov', box('mvhd', mvhd)), box('mdat', Buffer.alloc(16))]);
}

/** A RIFF `AVI ` header with an empty `hdrl` list (the probe reads the form type only). */
export function avi(): Buffer {
  const hdrl = Buffer.concat([Buffer.from('LIST', 'ascii'), Buffer.from([4, 0, 0, 0]), Buffer.from('hdrl', 'ascii')]);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(4 + hdrl.length, 4);
  head.write('AVI ', 8, 'ascii');
  return Buffer.concat([head, hdrl]);
}

export function dataUrl(mime: string, bytes: Buffer): string {
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

/**
 * A route of `serveMedia` answering 200 without Content-Length (chunked), whatever the Range:
 * `head`, then zeros up to `total` bytes, written as the client reads them.
 */
export function chunkedFile(head: Buffer, total: number): (req: IncomingMessage, res: ServerResponse) => void {
  const chunk = Buffer.alloc(64 * 1024);
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.on('error', () => undefined);
    res.write(head);
    let left = total - head.length;
    const more = (): void => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(chunk.length, left));
        left -= piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  };
}

export interface MediaServer {
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  /** Every request received: path and Range header. */
  readonly requests: Array<{ path: string; range: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server for tests of URL references: a Buffer is served as a file (a single
 * `Range: bytes=a-b` answered with 206 and `Content-Range`, as CDNs do), a function answers as it likes.
 * Unknown paths are 404.
 */
export async function serveMedia(
  routes: Record<string, Buffer | ((req: IncomingMessage, res: ServerResponse) => void)>,
): Promise<MediaServer> {
  const requests: MediaServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ path, range: req.headers.range });
    const route = routes[path];
    if (typeof route === 'function') return route(req, res);
    if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!range) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(route);
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : route.length - 1, route.length - 1);
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${route.length}` });
    res.end(route.subarray(start, end + 1));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
