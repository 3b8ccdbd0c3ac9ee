import * as http from 'node:http';
import type { LookupFunction } from 'node:net';
import { sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { CONNECT_TIMEOUT_CODE, ConnectTimeoutHttpAgent } from './connect-timeout-agents';
import { faultFromTransportError } from './upstream-fault';

function get(agent: http.Agent, url: string, lookup?: LookupFunction): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, lookup }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

describe('ConnectTimeoutHttpAgent', () => {
  it('destroys a connection that is not established within the connect timeout', async () => {
    const agent = new ConnectTimeoutHttpAgent({ keepAlive: true }, 100);
    const neverResolves: LookupFunction = () => undefined; // DNS that never answers: the socket never connects
    const started = Date.now();
    try {
      await expect(get(agent, 'http://upstream.invalid/', neverResolves)).rejects.toMatchObject({
        code: CONNECT_TIMEOUT_CODE,
      });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      agent.destroy();
    }
  });

  it('leaves established connections alone, even when the answer takes longer than the connect timeout', async () => {
    const upstream = await startFakeUpstream((_req, res) => setTimeout(() => sendJson(res, 200, {}), 150));
    const agent = new ConnectTimeoutHttpAgent({ keepAlive: true }, 50);
    try {
      await expect(get(agent, `${upstream.baseUrl}/`)).resolves.toBe(200);
    } finally {
      agent.destroy();
      await upstream.close();
    }
  });
});

describe('faultFromTransportError', () => {
  const axiosError = (code: string, request: object) =>
    Object.assign(new Error('x'), { isAxiosError: true, code, request });

  it('classifies connect failures as not sent', () => {
    expect(faultFromTransportError(axiosError(CONNECT_TIMEOUT_CODE, { writableFinished: false }), false)).toMatchObject(
      { kind: 'connect', requestSent: false },
    );
    expect(faultFromTransportError(axiosError('ECONNREFUSED', {}), false)).toMatchObject({
      kind: 'connect',
      requestSent: false,
    });
  });

  it('classifies a timeout by whether the request was fully written', () => {
    expect(faultFromTransportError(axiosError('ERR_CANCELED', { writableFinished: true }), true)).toMatchObject({
      kind: 'timeout',
      requestSent: true,
    });
    expect(faultFromTransportError(axiosError('ERR_CANCELED', { writableFinished: false }), true)).toMatchObject({
      kind: 'timeout',
      requestSent: false,
    });
  });

  it('treats a reset on a reused keep-alive socket as not processed', () => {
    expect(
      faultFromTransportError(axiosError('ECONNRESET', { writableFinished: true, reusedSocket: true }), false),
    ).toMatchObject({
      kind: 'stale-connection',
      requestSent: false,
    });
    expect(
      faultFromTransportError(axiosError('ECONNRESET', { writableFinished: true, reusedSocket: false }), false),
    ).toMatchObject({ kind: 'connection-lost', requestSent: true });
  });

  it('leaves errors that are not about the wire alone', () => {
    expect(faultFromTransportError(new TypeError('bug'), false)).toBeUndefined();
  });
});
