import { crc32, deflateSync } from 'node:zlib';

/**
 * A small real PNG (a colour gradient, `size` x `size`) as a `data:` URL: a reference image the
 * smoke test can send without hosting one. Vendors that only take public URLs need SMOKE_IMAGE_URL.
 */
export function inlinePngDataUrl(size = 256): string {
  const row = size * 3 + 1;
  const pixels = Buffer.alloc(row * size);
  for (let y = 0; y < size; y++) {
    pixels[y * row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const at = y * row + 1 + x * 3;
      pixels[at] = Math.round((x / size) * 255);
      pixels[at + 1] = Math.round((y / size) * 255);
      pixels[at + 2] = 160;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
