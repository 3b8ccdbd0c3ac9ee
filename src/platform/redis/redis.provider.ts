import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/** The shared Redis connection, or null when REDIS_URL is unset (in-process stores are used). */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | null;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.client = config.REDIS_URL
      ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
      : null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => undefined);
  }
}
