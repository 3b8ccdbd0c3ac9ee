import { ArgumentsHost, BadRequestException, NotFoundException } from '@nestjs/common';
import { FAMILY_REGISTRY } from '../../../test/support/families';
import { ErrorWriter } from './error-writer';
import { GatewayExceptionFilter } from './gateway-exception.filter';
import { DATABASE_RETRY_AFTER_SECONDS, GatewayError, MAX_MESSAGE_LENGTH } from './gateway-error';
import { QueryFailedError } from 'typeorm';

function hostFor(path: string) {
  const res = { headersSent: false, statusCode: 0, body: undefined as unknown, headers: {} as Record<string, string> };
  const response = {
    get headersSent() {
      return res.headersSent;
    },
    setHeader: (k: string, v: string) => (res.headers[k] = v),
    status(code: number) {
      res.statusCode = code;
      return this;
    },
    json(body: unknown) {
      res.body = body;
      return this;
    },
  };
  const request = { path, method: 'POST', id: 'req-1', headers: {}, complete: true };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
  return { host, res };
}

describe('GatewayExceptionFilter', () => {
  const filter = new GatewayExceptionFilter(new ErrorWriter(FAMILY_REGISTRY.errorDialects()));
  const logged = jest
    .spyOn((filter as unknown as { logger: { error: (...args: unknown[]) => void } }).logger, 'error')
    .mockImplementation(() => undefined);

  it('turns an unexpected error into 500 internal_error without internals', () => {
    const { host, res } = hostFor('/ax/api/v1/tasks/x');
    const boom = new Error('SELECT * FROM secrets failed at /srv/app/db.ts:42');
    filter.catch(boom, host);
    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({
      error: { message: 'Internal service error.', type: 'api_error', param: null, code: 'internal_error' },
      code: 'InternalError',
      message: 'Internal service error.',
      request_id: 'req-1',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/secrets|db\.ts|stack/);
    // The operators' line names the request it is about.
    expect(logged).toHaveBeenLastCalledWith({ err: boom, req: { id: 'req-1' } }, 'unhandled error');
  });

  it('answers a database that does not answer with 503 service_unavailable and Retry-After, not 500', () => {
    const { host, res } = hostFor('/kl/v1/general/custom-voices');
    const warned = jest
      .spyOn((filter as unknown as { logger: { warn: (...args: unknown[]) => void } }).logger, 'warn')
      .mockImplementation(() => undefined);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const failed = new QueryFailedError('SELECT 1', [], refused);
    filter.catch(failed, host);
    expect(res.statusCode).toBe(503);
    expect(res.headers['Retry-After']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(res.body).toEqual({
      error: {
        message: 'The service is temporarily unavailable; retry shortly.',
        type: 'api_error',
        param: null,
        code: 'service_unavailable',
      },
      code: 5001,
      message: 'The service is temporarily unavailable; retry shortly.',
      request_id: 'req-1',
      data: null,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|5432|SELECT/);
    // A warning for operators, not an unhandled error.
    expect(warned).toHaveBeenCalledWith({ err: failed, req: { id: 'req-1' } }, 'database unavailable');
    warned.mockRestore();
  });

  it('keeps a GatewayError as it is, with its headers and the vd native fields', () => {
    const { host, res } = hostFor('/vd/ent/v2/reference2video');
    filter.catch(GatewayError.rateLimited('slow down', 7), host);
    expect(res.statusCode).toBe(429);
    expect(res.headers['Retry-After']).toBe('7');
    expect(res.body).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      metadata: { trace_id: 'req-1' },
      error: { code: 'rate_limit_exceeded' },
    });
  });

  it('maps Nest HTTP exceptions: unknown routes to not_found, bad requests to invalid_request', () => {
    const a = hostFor('/kl/v1/nope');
    filter.catch(new NotFoundException(), a.host);
    expect(a.res.body).toMatchObject({ code: 1203, data: null, error: { code: 'not_found' } });
    const b = hostFor('/admin/v1/x');
    filter.catch(new BadRequestException('bad'), b.host);
    expect(b.res.body).toEqual({
      error: { message: 'bad', type: 'invalid_request_error', param: null, code: 'invalid_request' },
    });
  });

  it('passes an upstream rejection’s own native code and message on', () => {
    const { host, res } = hostFor('/ax/api/v1/services/aigc/video-generation/video-synthesis');
    filter.catch(
      GatewayError.invalid('The upstream rejected the request', null, {
        native: { code: 'InvalidParameter.DataInspection', message: 'input image not allowed' },
      }),
      host,
    );
    expect(res.body).toMatchObject({
      code: 'InvalidParameter.DataInspection',
      message: 'input image not allowed',
      error: { code: 'invalid_request' },
    });
  });
});

describe('GatewayError messages', () => {
  it('never carry more than MAX_MESSAGE_LENGTH characters of whatever they echo', () => {
    const echoed = 'x'.repeat(100_000);
    const err = GatewayError.invalid(`aspect_ratio must be one of 16:9, 9:16; got '${echoed}'.`, 'aspect_ratio');
    expect(err.message.length).toBe(MAX_MESSAGE_LENGTH + 3);
    expect(err.message.startsWith("aspect_ratio must be one of 16:9, 9:16; got 'xxx")).toBe(true);
    expect(GatewayError.invalid('short').message).toBe('short');
  });
});
