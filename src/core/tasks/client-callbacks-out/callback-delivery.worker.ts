import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import axios from 'axios';
import { useAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '../../../platform/config/app-config';
import { untraced, withTaskSpan } from '../../../platform/telemetry/spans';
import { Clock } from '../../../platform/time/clock';
import { AccountsRepository } from '../../accounts/repositories/accounts.repository';
import { CallbackDeliveryEntity } from '../entities/callback-delivery.entity';
import { WorkerLoop } from '../../../platform/workers/worker-loop';
import { runPool } from '../run-pool';
import { CallbackOutboxRepository } from './callback-outbox.repository';

const BATCH = 50;
const CONCURRENCY = 8;

/**
 * Delivers queued client callbacks: a POST of the task's query body, signed per Standard
 * Webhooks with the account's `whsec_` secret, retried with doubling back-off, and refused for
 * private destinations (checked on the resolved address) unless the operator allows them.
 */
@Injectable()
export class CallbackDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Callbacks');
  private readonly loop = new WorkerLoop(
    'callbacks',
    this.logger,
    () => this.runCycle(),
    () => Math.min(this.config.SYNC_INTERVAL_MS, 1000),
  );

  constructor(
    private readonly outbox: CallbackOutboxRepository,
    private readonly accounts: AccountsRepository,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.WORKERS_ENABLED) this.loop.start(0);
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  async runCycle(): Promise<number> {
    const due = await untraced(() => this.outbox.due(this.clock.nowMs(), BATCH));
    await runPool(due, CONCURRENCY, (delivery) =>
      withTaskSpan(
        'callback.deliver',
        delivery.traceContext,
        {
          'gateway.task_id': delivery.taskId,
          'gateway.delivery_id': delivery.id,
          'gateway.attempt': delivery.attempts + 1,
        },
        () => this.attempt(delivery),
      ),
    );
    return due.length;
  }

  private async attempt(delivery: CallbackDeliveryEntity): Promise<void> {
    const now = this.clock.nowMs();
    if (!(await this.outbox.claim(delivery.id, delivery.attempts, now + this.config.CALLBACK_TIMEOUT_MS * 2))) return;
    const attempts = delivery.attempts + 1;
    const account = await this.accounts.findById(delivery.accountId);
    let error: string | null = 'account not found';
    if (account) error = await this.post(delivery, account.webhookSecret);
    if (error === null) {
      await this.outbox.update(delivery.id, {
        status: 'delivered',
        attempts,
        nextAttemptAt: null,
        lastError: null,
        updatedAt: this.clock.nowMs(),
      });
      return;
    }
    const giveUp = attempts >= this.config.CALLBACK_MAX_ATTEMPTS;
    const delay = this.config.CALLBACK_RETRY_BASE_MS * Math.pow(2, attempts - 1) * (0.8 + Math.random() * 0.4);
    const nextAttemptAt = giveUp ? null : this.clock.nowMs() + Math.round(delay);
    await this.outbox.update(delivery.id, {
      status: giveUp ? 'failed' : 'pending',
      attempts,
      nextAttemptAt,
      lastError: error.slice(0, 500),
      updatedAt: this.clock.nowMs(),
    });
    const attempt = {
      taskId: delivery.taskId,
      deliveryId: delivery.id,
      attempt: attempts,
      maxAttempts: this.config.CALLBACK_MAX_ATTEMPTS,
      reason: error.slice(0, 500),
    };
    if (giveUp) this.logger.warn(attempt, 'client callback attempt failed; abandoned after the last attempt');
    else
      this.logger.warn(
        { ...attempt, nextAttemptAt: new Date(nextAttemptAt as number).toISOString() },
        'client callback attempt failed; will retry',
      );
  }

  /** One signed POST; null on a 2xx, else why it failed. */
  private async post(delivery: CallbackDeliveryEntity, secret: string): Promise<string | null> {
    const timestamp = new Date(this.clock.nowMs());
    const signature = new Webhook(secret).sign(delivery.id, timestamp, delivery.body);
    const agent = this.config.CALLBACK_ALLOW_PRIVATE ? undefined : useAgent(delivery.url);
    try {
      const res = await axios.post(delivery.url, delivery.body, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'video-gateway-webhooks/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        timeout: this.config.CALLBACK_TIMEOUT_MS,
        maxRedirects: 0,
        validateStatus: () => true,
        httpAgent: agent,
        httpsAgent: agent,
        transformRequest: [(data: unknown) => data],
      });
      return res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
