import { EntityManager, Repository } from 'typeorm';
import { CallbackOutboxRepository } from '../../src/core/tasks/client-callbacks-out/callback-outbox.repository';
import { CallbackDeliveryEntity } from '../../src/core/tasks/entities/callback-delivery.entity';
import { offline, offlineManager } from './offline';

/** The client-callback outbox in memory, with the SQL's rules: due by next attempt, a claim taken once per attempt. */
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

  override async due(now: number, limit: number): Promise<CallbackDeliveryEntity[]> {
    return [...this.rows.values()]
      .filter((d) => d.nextAttemptAt !== null && d.nextAttemptAt <= now)
      .sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0))
      .slice(0, limit)
      .map((d) => ({ ...d }));
  }

  override async claim(id: string, expectedAttempts: number, leaseUntil: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.attempts !== expectedAttempts || row.status !== 'pending') return false;
    Object.assign(row, { nextAttemptAt: leaseUntil, attempts: expectedAttempts + 1 });
    return true;
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
