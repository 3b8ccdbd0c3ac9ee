import { Injectable } from '@nestjs/common';
import { Family } from '../core/models/catalogue';
import { AxClient } from './ax/ax.client';
import { KlClient } from './kl/kl.client';
import type { UpstreamTaskClient } from './upstream.types';
import { VdClient } from './vd/vd.client';

/** The task engine's single entry: the client that speaks a family's upstream protocol. */
@Injectable()
export class UpstreamClients {
  private readonly clients: Readonly<Record<Family, UpstreamTaskClient>>;

  constructor(
    /** Family A also has non-task calls (sessions, voices): use `kl.call(...)`. */
    readonly kl: KlClient,
    ax: AxClient,
    vd: VdClient,
  ) {
    this.clients = { kl, ax, vd };
  }

  clientFor(family: Family): UpstreamTaskClient {
    return this.clients[family];
  }
}
