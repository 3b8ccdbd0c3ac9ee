import type Redis from 'ioredis';
import { RedisConnection } from '../../src/platform/redis/redis.provider';

/**
 * Redis's publish/subscribe as the gateway uses it, in process: `published` records what was sent,
 * `failPublish` makes the next publishes fail; subscribers made with `duplicate()` get what is
 * published on the channels they subscribed to.
 */
export class FakeRedis {
  readonly published: Array<{ channel: string; message: string }> = [];
  failPublish: Error | null = null;
  private readonly subscribers: Array<{ channels: Set<string>; listeners: Array<(c: string, m: string) => void> }> = [];

  async publish(channel: string, message: string): Promise<number> {
    if (this.failPublish) throw this.failPublish;
    this.published.push({ channel, message });
    let delivered = 0;
    for (const subscriber of this.subscribers)
      if (subscriber.channels.has(channel)) {
        delivered += 1;
        for (const listener of subscriber.listeners) listener(channel, message);
      }
    return delivered;
  }

  duplicate(): FakeRedis {
    const subscriber = { channels: new Set<string>(), listeners: [] as Array<(c: string, m: string) => void> };
    this.subscribers.push(subscriber);
    const subscribers = this.subscribers;
    return Object.assign(Object.create(FakeRedis.prototype) as FakeRedis, {
      on(event: string, listener: (c: string, m: string) => void) {
        if (event === 'message') subscriber.listeners.push(listener);
        return this;
      },
      async subscribe(channel: string) {
        subscriber.channels.add(channel);
      },
      async quit() {
        subscribers.splice(subscribers.indexOf(subscriber), 1);
        return 'OK';
      },
    });
  }

  /** A `RedisConnection` whose client is this fake. */
  connection(): RedisConnection {
    return Object.assign(Object.create(RedisConnection.prototype) as RedisConnection, {
      client: this as unknown as Redis,
    });
  }
}
