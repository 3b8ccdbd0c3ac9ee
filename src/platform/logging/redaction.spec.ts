import pino from 'pino';
import { Writable } from 'stream';
import { REDACTED_PATHS } from './logging.module';

describe('log redaction', () => {
  it('never writes Authorization headers, keys or secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info({ req: { headers: { authorization: 'Bearer vgw_supersecret', 'x-api-key': 'k-123' } } }, 'access');
    logger.info({ channel: { apiKey: 'sim-ax-abc', secretKey: 'sk-xyz' } }, 'upstream');
    const out = lines.join('');
    expect(out).not.toMatch(/vgw_supersecret|k-123|sim-ax-abc|sk-xyz/);
    expect(out).toContain('[redacted]');
  });
});
