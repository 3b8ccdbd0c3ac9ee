import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { createGatewayApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/platform/config/app-config';
import { Clock } from '../../src/platform/time/clock';
import { FamilyRegistry } from '../../src/families/family-registry';
import { UpstreamChannel } from '../../src/upstream/upstream.types';
import type { UpstreamVendor } from '../../src/upstream/vendor';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface Harness {
  app: NestExpressApplication;
  config: AppConfig;
  http: () => ReturnType<typeof request>;
  admin: AdminClient;
  close(): Promise<void>;
}

/**
 * The real gateway on the database the test run selects: SQLite in memory by default, or
 * PostgreSQL + Redis when DATABASE_URL / REDIS_URL are set (the second CI pass). Each harness
 * starts from an empty schema.
 */
export async function startGateway(
  options: {
    env?: Record<string, string>;
    channels?: UpstreamChannel[];
    clock?: Clock;
    keepData?: boolean;
    /** The lists the gateway is built from (default: the repository's), e.g. extended by a test family. */
    families?: FamilyRegistry;
    vendors?: readonly UpstreamVendor[];
  } = {},
): Promise<Harness> {
  // Kept result files go to a directory of this harness (removed on close), never the repository's data/.
  const resultsDir = options.env?.RESULT_STORE_DIR ? null : mkdtempSync(join(tmpdir(), 'gw-results-'));
  const env = {
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN,
    ...(resultsDir ? { RESULT_STORE_DIR: resultsDir } : {}),
    ...pick(process.env, ['DATABASE_URL', 'REDIS_URL', 'FAST_PATHS']),
    ...options.env,
  };
  const config = loadConfig(env);
  // keepData: a restart of the same gateway on the same database.
  if (!options.keepData) await resetStores(config);
  const app = await createGatewayApp({
    config,
    channels: options.channels ?? [],
    adminToken: ADMIN_TOKEN,
    clock: options.clock,
    families: options.families,
    vendors: options.vendors,
  });
  await app.init();
  const http = () => request(app.getHttpServer());
  const close = async (): Promise<void> => {
    await app.close();
    if (resultsDir) rmSync(resultsDir, { recursive: true, force: true });
  };
  return { app, config, http, admin: new AdminClient(http), close };
}

function pick(source: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => source[k]).map((k) => [k, source[k] as string]));
}

/** PostgreSQL's code for a statement it aborted to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';
const RESET_ATTEMPTS = 5;

/**
 * Empties the stores a harness starts from. A gateway still running in this process (a spec's outer one, beside
 * a second it starts) may hold locks the schema's drop needs while it waits on the schema itself; PostgreSQL then
 * aborts the drop as a deadlock, and the drop is tried again once the other transaction has gone on.
 */
export async function resetStores(config: Pick<AppConfig, 'DATABASE_URL' | 'REDIS_URL'>): Promise<void> {
  if (config.DATABASE_URL?.startsWith('postgres')) {
    const ds = new DataSource({ type: 'postgres', url: config.DATABASE_URL });
    await ds.initialize();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await ds.query('DROP SCHEMA IF EXISTS public CASCADE');
          break;
        } catch (error) {
          if (attempt >= RESET_ATTEMPTS || (error as { code?: string }).code !== DEADLOCK_DETECTED) throw error;
        }
      }
      await ds.query('CREATE SCHEMA public');
    } finally {
      await ds.destroy();
    }
  }
  if (config.REDIS_URL) {
    const redis = new Redis(config.REDIS_URL);
    await redis.flushdb();
    await redis.quit();
  }
}

export interface TestAccount {
  id: string;
  key: string;
  keyId: string;
}

/** The admin API, as an operator would use it: with ADMIN_TOKEN unless another token is given. */
export class AdminClient {
  constructor(
    private readonly http: () => ReturnType<typeof request>,
    private readonly token: string = ADMIN_TOKEN,
  ) {}

  /** The same API with another operator's token. */
  as(token: string): AdminClient {
    return new AdminClient(this.http, token);
  }

  post(path: string, body: unknown) {
    return this.http()
      .post(path)
      .set('Authorization', `Bearer ${this.token}`)
      .send(body as object);
  }
  put(path: string, body: unknown) {
    return this.http()
      .put(path)
      .set('Authorization', `Bearer ${this.token}`)
      .send(body as object);
  }
  patch(path: string, body: unknown) {
    return this.http()
      .patch(path)
      .set('Authorization', `Bearer ${this.token}`)
      .send(body as object);
  }
  get(path: string) {
    return this.http().get(path).set('Authorization', `Bearer ${this.token}`);
  }
  delete(path: string) {
    return this.http().delete(path).set('Authorization', `Bearer ${this.token}`);
  }

  /** A new operator with `role`, and the admin API as that operator. */
  async operator(role: string, name = `${role} operator`): Promise<{ id: string; token: string; client: AdminClient }> {
    const created = await this.post('/admin/v1/operators', { name, role }).expect(201);
    return { id: created.body.id, token: created.body.token, client: this.as(created.body.token) };
  }

  /** An account with a key and the given models (all capabilities unless stated). */
  async account(
    options: {
      models?: Array<string | { model: string; capabilities?: string[] }>;
      balance?: number;
      rate_limit_rpm?: number;
      max_concurrent_tasks?: number;
    } = {},
  ): Promise<TestAccount> {
    const created = await this.post('/admin/v1/accounts', {
      name: 'test account',
      balance: options.balance ?? 100_000_000,
      ...(options.rate_limit_rpm ? { rate_limit_rpm: options.rate_limit_rpm } : {}),
      ...(options.max_concurrent_tasks ? { max_concurrent_tasks: options.max_concurrent_tasks } : {}),
    }).expect(201);
    const id = created.body.id as string;
    const models = (options.models ?? []).map((m) => (typeof m === 'string' ? { model: m } : m));
    if (models.length > 0) await this.put(`/admin/v1/accounts/${id}/models`, { models }).expect(200);
    const key = await this.post(`/admin/v1/accounts/${id}/keys`, { name: 'test' }).expect(201);
    return { id, key: key.body.key, keyId: key.body.id };
  }
}
