import { Injectable } from '@nestjs/common';
import { AxClient } from './ax/ax.client';
import { KlClient } from './kl/kl.client';
import type { UpstreamTaskClient } from './upstream.types';
import { VdClient } from './vd/vd.client';

/** The task engine's single entry: the client that speaks a vendor protocol, by its family name. */
@Injectable()
export class UpstreamClients {
  private readonly clients: ReadonlyMap<string, UpstreamTaskClient>;

  constructor(
    /** Family A also has non-task calls (sessions, voices): use `kl.call(...)`. */
    readonly kl: KlClient,
    ax: AxClient,
    vd: VdClient,
  ) {
    this.clients = new Map<string, UpstreamTaskClient>([kl, ax, vd].map((client) => [client.family, client]));
  }

  clientFor(family: string): UpstreamTaskClient {
    const client = this.clients.get(family);
    if (!client) throw new Error(`No upstream client speaks the protocol of family '${family}'.`);
    return client;
  }
}
