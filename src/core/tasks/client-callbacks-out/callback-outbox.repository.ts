import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { HotSql } from '../../../platform/database/hot-sql';
import { CallbackDeliveryEntity } from '../entities/callback-delivery.entity';

@Injectable()
export class CallbackOutboxRepository {
  private readonly hot: HotSql;
  private readonly isPostgres: boolean;

  constructor(
    @InjectRepository(CallbackDeliveryEntity) private readonly repo: Repository<CallbackDeliveryEntity>,
    dataSource: DataSource,
  ) {
    this.hot = HotSql.of(dataSource);
    this.isPostgres = dataSource.options.type === 'postgres';
  }

  /**
   * Written with the task's ending and never read back there: on PostgreSQL it goes out with the COMMIT
   * (`HotSql.insertAtCommit`).
   */
  async add(manager: EntityManager | undefined, delivery: CallbackDeliveryEntity): Promise<void> {
    await this.hot.insertAtCommit(manager, CallbackDeliveryEntity, delivery);
  }

  /**
   * Takes up to `limit` due deliveries for one attempt each, oldest due first, in one statement:
   * their attempt is counted and their next attempt moved to `leaseUntil`, so no other worker sends
   * them meanwhile (PostgreSQL skips rows another instance is claiming: FOR UPDATE SKIP LOCKED). The
   * rows come back as changed. Delivered and abandoned deliveries have no next attempt and are never scanned.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<CallbackDeliveryEntity[]> {
    const lock = this.isPostgres ? ' FOR UPDATE SKIP LOCKED' : '';
    const sql =
      'UPDATE "callback_deliveries" SET "next_attempt_at" = ?, "attempts" = "attempts" + 1 WHERE "id" IN (' +
      'SELECT "id" FROM "callback_deliveries" WHERE "next_attempt_at" <= ? AND "status" = \'pending\' ' +
      `ORDER BY "next_attempt_at" LIMIT ?${lock})`;
    return this.hot.returning(undefined, CallbackDeliveryEntity, sql, [leaseUntil, now, limit]);
  }

  /** Records an attempt's outcome; in `manager`'s transaction when given (a cycle's outcomes commit together). */
  async update(id: string, changes: Partial<CallbackDeliveryEntity>, manager?: EntityManager): Promise<void> {
    await this.hot.update(manager, CallbackDeliveryEntity, changes, '"id" = ?', [id]);
  }

  forTask(taskId: string): Promise<CallbackDeliveryEntity[]> {
    return this.repo.findBy({ taskId });
  }

  /** A task's deliveries in the order they were queued (the admin view of its callbacks). */
  listForTask(taskId: string): Promise<CallbackDeliveryEntity[]> {
    return this.repo.find({ where: { taskId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
