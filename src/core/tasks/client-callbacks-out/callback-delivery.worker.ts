import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import axios from 'axios';
import { useAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '../../../platform/config/app-config';
import { untraced, withTaskSpan } from '../../../platform/telemetry/spans';
import { TransactionRunner } from '../../../platform/database/transaction-runner';
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
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.WORKERS_ENABLED) this.loop.start(0);
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One cycle: claims up to a batch of due deliveries in one statement, reads their accounts'
   * secrets in one more, sends them through a bounded pool, and records every outcome in one
   * transaction. A crash before that record leaves each claimed delivery due again once its lease
   * (twice the time limit) has run out: at least once, never lost.
   */
  async runCycle(): Promise<number> {
    const now = this.clock.nowMs();
    const claimed = await untraced(() => this.outbox.claimDue(now, now + this.config.CALLBACK_TIMEOUT_MS * 2, BATCH));
    if (claimed.length === 0) return 0;
    const accountIds = [...new Set(claimed.map((delivery) => delivery.accountId))];
    const secrets = new Map(
      (await this.accounts.findByIds(accountIds)).map((account) => [account.id, account.webhookSecret]),
    );
    const outcomes: Array<{
      delivery: CallbackDeliveryEntity;
      error: string | null;
      changes: Partial<CallbackDeliveryEntity>;
    }> = [];
    await runPool(claimed, CONCURRENCY, (delivery) =>
      withTaskSpan(
        'callback.deliver',
        delivery.traceContext,
        {
          'gateway.task_id': delivery.taskId,
          'gateway.delivery_id': delivery.id,
          'gateway.attempt': delivery.attempts,
        },
        async () => {
          const secret = secrets.get(delivery.accountId);
          const error = secret === undefined ? 'account not found' : await this.post(delivery, secret);
          outcomes.push({ delivery, error, changes: this.outcome(delivery, error) });
        },
      ),
    );
    await this.transactions.run(async (tx) => {
      for (const { delivery, changes } of outcomes) await this.outbox.update(delivery.id, changes, tx);
    });
    for (const { delivery, error, changes } of outcomes) if (error !== null) this.logFailure(delivery, error, changes);
    return claimed.length;
  }

  /** The row's changes after an attempt (`delivery.attempts` already counts it): delivered, retried later, or abandoned. */
  private outcome(delivery: CallbackDeliveryEntity, error: string | null): Partial<CallbackDeliveryEntity> {
    const updatedAt = this.clock.nowMs();
    if (error === null) return { status: 'delivered', nextAttemptAt: null, lastError: null, updatedAt };
    const giveUp = delivery.attempts >= this.config.CALLBACK_MAX_ATTEMPTS;
    const delay = this.config.CALLBACK_RETRY_BASE_MS * Math.pow(2, delivery.attempts - 1) * (0.8 + Math.random() * 0.4);
    return {
      status: giveUp ? 'failed' : 'pending',
      nextAttemptAt: giveUp ? null : updatedAt + Math.round(delay),
      lastError: error.slice(0, 500),
      updatedAt,
    };
  }

  private logFailure(
    delivery: CallbackDeliveryEntity,
    error: string,
    { nextAttemptAt }: Partial<CallbackDeliveryEntity>,
  ): void {
    const giveUp = delivery.attempts >= this.config.CALLBACK_MAX_ATTEMPTS;
    const attempt = {
      taskId: delivery.taskId,
      deliveryId: delivery.id,
      attempt: delivery.attempts,
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
