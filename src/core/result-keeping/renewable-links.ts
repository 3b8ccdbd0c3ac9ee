import { Injectable } from '@nestjs/common';

/** Gives a current upstream link of the file `key` names, or undefined when the source knows no such file. */
export type RenewableLinkSource = (key: string) => Promise<string | undefined>;

/**
 * Files the gateway streams from an upstream without keeping them, and whose upstream links expire
 * sooner than a gateway URL: the gateway's URL names a source and a key (`ResultLinks.renewableUrl`),
 * and the source registered under that name gives a current link each time the URL is used.
 */
@Injectable()
export class RenewableLinks {
  private readonly sources = new Map<string, RenewableLinkSource>();

  /** `name` must not hold `~` (it is a field of the signed token). */
  register(name: string, source: RenewableLinkSource): void {
    if (name.includes('~')) throw new Error(`A renewable link source name cannot hold '~': ${name}`);
    this.sources.set(name, source);
  }

  /** A current upstream link; undefined for an unknown source or key. */
  current(source: string, key: string): Promise<string | undefined> {
    return this.sources.get(source)?.(key) ?? Promise.resolve(undefined);
  }
}
