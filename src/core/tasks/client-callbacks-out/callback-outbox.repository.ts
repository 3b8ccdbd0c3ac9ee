import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { HotSql } from '../../../platform/database/hot-sql';
import { CallbackDeliveryEntity } from '../entities/callback-delivery.entity';

@Injectable()
export class CallbackOutboxRepository {
  private readonly hot: HotSql;

  constructor(
    @InjectRepository(CallbackDeliveryEntity) private readonly repo: Repository<CallbackDeliveryEntity>,
    dataSource: DataSource,
  ) {
    this.hot = HotSql.of(dataSource);
  }

  /**
   * Written with the task's ending and never read back there: on PostgreSQL it goes out with the COMMIT
   * (`HotSql.insertAtCommit`).
   */
  async add(manager: EntityManager | undefined, delivery: CallbackDeliveryEntity): Promise<void> {
    await this.hot.insertAtCommit(manager, CallbackDeliveryEntity, delivery);
  }

  /** Due deliveries, oldest first; delivered and abandoned ones have no next attempt and are never scanned. */
  due(now: number, limit: number): Promise<CallbackDeliveryEntity[]> {
    return this.repo
      .createQueryBuilder('c')
      .where('c.next_attempt_at <= :now', { now })
      .orderBy('c.next_attempt_at', 'ASC')
      .take(limit)
      .getMany();
  }

  /** Takes a delivery for one attempt, so two workers never send it at once. */
  async claim(id: string, expectedAttempts: number, leaseUntil: number): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update(CallbackDeliveryEntity)
      .set({ nextAttemptAt: leaseUntil, attempts: expectedAttempts + 1 })
      .where('id = :id AND attempts = :expectedAttempts AND status = :pending', {
        id,
        expectedAttempts,
        pending: 'pending',
      })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  async update(id: string, changes: Partial<CallbackDeliveryEntity>): Promise<void> {
    await this.repo.update({ id }, changes);
  }

  forTask(taskId: string): Promise<CallbackDeliveryEntity[]> {
    return this.repo.findBy({ taskId });
  }

  /** A task's deliveries in the order they were queued (the admin view of its callbacks). */
  listForTask(taskId: string): Promise<CallbackDeliveryEntity[]> {
    return this.repo.find({ where: { taskId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
