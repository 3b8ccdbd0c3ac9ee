import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AxClient } from './ax/ax.client';
import { ChannelRegistry } from './channel-routing/channel-registry';
import { UPSTREAM_CHANNELS } from './channel-routing/upstream-channels.token';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions } from './http/upstream-http-options';
import { KlClient } from './kl/kl.client';
import { sendJson, startFakeUpstream } from '../../test/upstream/fake-upstream';
import { UpstreamClients } from './upstream-clients';
import { UpstreamModule } from './upstream.module';
import type { UpstreamChannel } from './upstream.types';
import { VdClient } from './vd/vd.client';

@Injectable()
class FakeSimulator {
  channels(): UpstreamChannel[] {
    return [{ id: 'sim-vd', family: 'vd', baseUrl: 'http://127.0.0.1:1', apiKey: 'sim' }];
  }
}

@Module({ providers: [FakeSimulator], exports: [FakeSimulator] })
class FakeSimulatorModule {}

async function contextOf(module: ReturnType<typeof UpstreamModule.forRoot>) {
  return NestFactory.createApplicationContext(module, { logger: false });
}

describe('UpstreamModule', () => {
  it('wires the clients, the registry and the facade with the given channels', async () => {
    const upstream = await startFakeUpstream((_req, res) =>
      sendJson(res, 200, { code: 0, data: { task_id: 't1', task_status: 'submitted' } }),
    );
    const app = await contextOf(
      UpstreamModule.forRoot({
        channels: [{ id: 'kl-sim', family: 'kl', baseUrl: upstream.baseUrl, apiKey: 'k' }],
        http: { readRetries: 0 },
      }),
    );
    try {
      const clients = app.get(UpstreamClients);
      expect(clients.clientFor('kl')).toBe(app.get(KlClient));
      expect(clients.clientFor('ax')).toBe(app.get(AxClient));
      expect(clients.clientFor('vd')).toBe(app.get(VdClient));
      expect(clients.clientFor('ax').family).toBe('ax');
      expect(app.get<UpstreamHttpOptions>(UPSTREAM_HTTP_OPTIONS)).toMatchObject({
        readRetries: 0,
        createTimeoutMs: 30_000,
      });
      const channel = app.get(ChannelRegistry).forFamily('kl');
      await expect(clients.clientFor('kl').submit(channel, 'multi_elements', {})).resolves.toMatchObject({
        upstreamTaskId: 't1',
      });
    } finally {
      await app.close();
      await upstream.close();
    }
  });

  it('takes the channels from a factory with its own imports (e.g. the simulator)', async () => {
    const app = await contextOf(
      UpstreamModule.forRoot({
        imports: [FakeSimulatorModule],
        channels: { inject: [FakeSimulator], useFactory: (sim: FakeSimulator) => sim.channels() },
      }),
    );
    try {
      expect(app.get<UpstreamChannel[]>(UPSTREAM_CHANNELS).map((c) => c.id)).toEqual(['sim-vd']);
      expect(app.get(ChannelRegistry).forFamily('vd').id).toBe('sim-vd');
    } finally {
      await app.close();
    }
  });

  it('reads the channels from the environment by default', async () => {
    const saved = { ...process.env };
    process.env.UPSTREAM_AX_BASE_URL = 'https://ax.example';
    process.env.UPSTREAM_AX_API_KEY = 'env-key';
    try {
      const app = await contextOf(UpstreamModule.forRoot());
      expect(app.get(ChannelRegistry).forFamily('ax').id).toBe('ax-default');
      await app.close();
    } finally {
      process.env = saved;
    }
  });
});
