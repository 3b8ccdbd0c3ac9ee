import type { IncomingMessage, Server } from 'http';
import { IncomingMessage as NodeIncomingMessage } from 'http';
import { getMetadataStorage } from 'class-validator';
import { existsSync } from 'fs';
import { DataSource } from 'typeorm';
import { FAST_PATH_PIECES, fastPathsOn } from '../../src/platform/config/fast-paths';
import { ObjectStore } from '../../src/core/result-keeping/object-store';
import { HotSql } from '../../src/platform/database/hot-sql';
import { Harness, startGateway } from '../support/gateway-harness';

class Probe {}

/**
 * FAST_PATHS reaches every piece of a gateway built with it: on, the hand-written pieces run; off,
 * the libraries' own paths (each piece's spec shows both give the same answers).
 */
describe.each([
  ['true', true],
  ['false', false],
])('FAST_PATHS=%s', (setting, on) => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway({ env: { FAST_PATHS: setting } });
  });
  afterAll(() => gw.close());

  it('is the setting the pieces read', () => {
    expect(gw.config.FAST_PATHS).toBe(on);
    for (const piece of FAST_PATH_PIECES) expect(fastPathsOn(piece)).toBe(on);
  });

  it("builds requests with Node's class only when off; answers through Express's res.send in both modes", async () => {
    const express = gw.app.getHttpAdapter().getInstance();
    const server = gw.app.getHttpServer() as Server;
    const send = jest.spyOn(express.response, 'send');
    const born: unknown[] = [];
    let sent = 0;
    const record = (req: IncomingMessage) => born.push(Object.getPrototypeOf(req));
    server.prependListener('request', record);
    try {
      const res = await gw.http().get('/healthz').expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['server-timing']).toMatch(/^gw;dur=\d/);
      sent = send.mock.calls.length;
    } finally {
      server.removeListener('request', record);
      send.mockRestore();
    }
    expect(sent).toBe(1);
    expect(born).toEqual([on ? express.request : NodeIncomingMessage.prototype]);
  });

  it('runs hot SQL through TypeORM and keeps no validation rules only when off', () => {
    expect(HotSql.of(gw.app.get(DataSource)).fast).toBe(on);
    const storage = getMetadataStorage();
    const rules = storage.getTargetValidationMetadatas(Probe, '', false, false);
    expect(rules === storage.getTargetValidationMetadatas(Probe, '', false, false)).toBe(on);
  });

  it('writes a small kept file before putBytes returns only when on', async () => {
    const store = gw.app.get(ObjectStore);
    const written = store.putBytes(`fast-paths-${setting}/v0`, Buffer.from('abc'), 'video/mp4');
    expect(existsSync(store.localPath!(`fast-paths-${setting}/v0`))).toBe(on);
    expect(await written).toBe(3);
  });
});

describe('FAST_PATHS_OFF=hot-sql,express-classes', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway({ env: { FAST_PATHS: 'true', FAST_PATHS_OFF: 'hot-sql, express-classes' } });
  });
  afterAll(() => gw.close());

  it('turns off only the pieces it names; the others run', async () => {
    expect(gw.config.FAST_PATHS_OFF).toEqual(['hot-sql', 'express-classes']);
    expect(HotSql.of(gw.app.get(DataSource)).fast).toBe(false);
    expect(fastPathsOn('axios-adapter')).toBe(true);
    expect(fastPathsOn('group-commit')).toBe(true);
    const server = gw.app.getHttpServer() as Server;
    const born: unknown[] = [];
    const record = (req: IncomingMessage) => born.push(Object.getPrototypeOf(req));
    server.prependListener('request', record);
    try {
      await gw.http().get('/healthz').expect(200);
    } finally {
      server.removeListener('request', record);
    }
    expect(born).toEqual([NodeIncomingMessage.prototype]);
  });
});
