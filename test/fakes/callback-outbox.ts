import { EntityManager, Repository } from 'typeorm';
import { CallbackOutboxRepository } from '../../src/core/tasks/client-callbacks-out/callback-outbox.repository';
import { CallbackDeliveryEntity } from '../../src/core/tasks/entities/callback-delivery.entity';
import { offline, offlineManager } from './offline';

/** The client-callback outbox in memory, with the SQL's rules: due by next attempt, claimed for one attempt at a time. */
export class InMemoryCallbackOutboxRepository extends CallbackOutboxRepository {
  readonly rows = new Map<string, CallbackDeliveryEntity>();

  constructor(...deliveries: CallbackDeliveryEntity[]) {
    super(new Repository(CallbackDeliveryEntity, offlineManager), offline);
    for (const delivery of deliveries) this.rows.set(delivery.id, { ...delivery });
  }

  row(id: string): CallbackDeliveryEntity {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no delivery ${id} in the fake outbox`);
    return { ...row };
  }

  override async add(_manager: EntityManager | undefined, delivery: CallbackDeliveryEntity): Promise<void> {
    this.rows.set(delivery.id, { ...delivery });
  }

  override async claimDue(now: number, leaseUntil: number, limit: number): Promise<CallbackDeliveryEntity[]> {
    return [...this.rows.values()]
      .filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now)
      .sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0))
      .slice(0, limit)
      .map((d) => ({ ...Object.assign(d, { nextAttemptAt: leaseUntil, attempts: d.attempts + 1 }) }));
  }

  override async update(id: string, changes: Partial<CallbackDeliveryEntity>): Promise<void> {
    const row = this.rows.get(id);
    if (row) Object.assign(row, changes);
  }

  override async forTask(taskId: string): Promise<CallbackDeliveryEntity[]> {
    return [...this.rows.values()].filter((d) => d.taskId === taskId).map((d) => ({ ...d }));
  }

  override async listForTask(taskId: string): Promise<CallbackDeliveryEntity[]> {
    return (await this.forTask(taskId)).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }
}
