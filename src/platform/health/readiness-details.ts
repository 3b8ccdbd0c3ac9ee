import { Injectable } from '@nestjs/common';

export type DetailSource = () => Promise<Record<string, unknown>>;

/**
 * What other modules add to `/readyz` as information (e.g. the result store's fill). A detail
 * never makes the gateway unready; a source that fails shows as `unavailable`.
 */
@Injectable()
export class ReadinessDetails {
  private readonly sources = new Map<string, DetailSource>();

  register(name: string, source: DetailSource): void {
    this.sources.set(name, source);
  }

  async collect(): Promise<Record<string, unknown> | undefined> {
    if (this.sources.size === 0) return undefined;
    const entries = await Promise.all(
      [...this.sources].map(async ([name, source]) => [name, await source().catch(() => 'unavailable')] as const),
    );
    return Object.fromEntries(entries);
  }
}
