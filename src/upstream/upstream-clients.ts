import { Inject, Injectable } from '@nestjs/common';
import type { UpstreamTaskClient } from './upstream.types';

/** Injection token of every registered vendor's client (`readonly UpstreamTaskClient[]`). */
export const UPSTREAM_TASK_CLIENTS = Symbol('UPSTREAM_TASK_CLIENTS');

/** The task engine's single entry: the client that speaks a vendor protocol, by its family name. */
@Injectable()
export class UpstreamClients {
  private readonly clients: ReadonlyMap<string, UpstreamTaskClient>;

  constructor(@Inject(UPSTREAM_TASK_CLIENTS) clients: readonly UpstreamTaskClient[]) {
    this.clients = new Map(clients.map((client) => [client.family, client]));
  }

  clientFor(family: string): UpstreamTaskClient {
    const client = this.clients.get(family);
    if (!client) throw new Error(`No upstream client speaks the protocol of family '${family}'.`);
    return client;
  }
}
