import { imageSize } from 'image-size';
import { inflateSync } from 'node:zlib';
import { inlinePngDataUrl } from './inline-png';

describe('inlinePngDataUrl', () => {
  it('is a real PNG of the asked size, large enough for every vendor’s minimum', () => {
    const url = inlinePngDataUrl(256);
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const bytes = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(imageSize(bytes)).toMatchObject({ width: 256, height: 256, type: 'png' });
    // The pixel data inflates to one filter byte plus RGB per row.
    const idatStart = bytes.indexOf('IDAT') + 4;
    const idatLength = bytes.readUInt32BE(idatStart - 8);
    expect(inflateSync(bytes.subarray(idatStart, idatStart + idatLength))).toHaveLength(256 * (256 * 3 + 1));
  });
});
