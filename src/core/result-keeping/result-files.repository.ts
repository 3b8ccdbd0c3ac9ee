import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { HotSql } from '../../platform/database/hot-sql';
import { freshDownload } from './pending-file';
import { ResultFileEntity, ResultFileStatus } from './result-file.entity';

/** The statuses of a file the gateway does not hold a copy of, and will not try again by itself. */
export const REQUEUABLE: readonly ResultFileStatus[] = ['failed', 'skipped', 'removed'];

/** Persistence of kept result files: the download queue and the record of each copy. */
@Injectable()
export class ResultFilesRepository {
  private readonly isPostgres: boolean;
  private readonly hot: HotSql;

  constructor(
    @InjectRepository(ResultFileEntity) private readonly repo: Repository<ResultFileEntity>,
    dataSource: DataSource,
  ) {
    this.isPostgres = dataSource.options.type === 'postgres';
    this.hot = HotSql.of(dataSource);
  }

  /**
   * A task's files, queued with its terminal switch in one INSERT; on PostgreSQL it goes out with
   * the COMMIT (`HotSql.insertManyAtCommit`).
   */
  async add(manager: EntityManager | undefined, files: ResultFileEntity[]): Promise<void> {
    await this.hot.insertManyAtCommit(manager, ResultFileEntity, files);
  }

  /**
   * Leases up to `limit` due downloads to `owner` until `leaseUntil`, oldest due first; a lease
   * left by a dead instance is taken over once it has run out. PostgreSQL skips rows another
   * instance is leasing (FOR UPDATE SKIP LOCKED); SQLite has one writer anyway.
   */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<ResultFileEntity[]> {
    const lock = this.isPostgres ? ' FOR UPDATE SKIP LOCKED' : '';
    const sql =
      'UPDATE "result_files" SET "lease_owner" = ?, "lease_until" = ?, "attempts" = "attempts" + 1 WHERE "id" IN (' +
      'SELECT "id" FROM "result_files" WHERE "next_attempt_at" <= ? AND ("lease_until" IS NULL OR "lease_until" < ?) ' +
      `ORDER BY "next_attempt_at" LIMIT ?${lock})`;
    return this.hot.returning(undefined, ResultFileEntity, sql, [owner, leaseUntil, now, now, limit]);
  }

  /** Records an attempt's outcome, only while `owner` still holds the lease (a taken-over lease wins); in `manager`'s transaction when given. */
  async settle(
    id: string,
    owner: string,
    changes: Partial<ResultFileEntity>,
    manager?: EntityManager,
  ): Promise<boolean> {
    const done = { ...changes, leaseOwner: null, leaseUntil: null };
    return (await this.hot.update(manager, ResultFileEntity, done, '"id" = ? AND "lease_owner" = ?', [id, owner])) > 0;
  }

  /** In `manager`'s transaction when given. */
  findById(id: string, manager?: EntityManager): Promise<ResultFileEntity | null> {
    return this.hot.findOne(manager, ResultFileEntity, '"id" = ?', [id]);
  }

  forTask(taskId: string): Promise<ResultFileEntity[]> {
    return this.repo.find({ where: { taskId }, order: { slot: 'ASC' } });
  }

  forTasks(taskIds: string[]): Promise<ResultFileEntity[]> {
    return taskIds.length ? this.repo.find({ where: { taskId: In(taskIds) } }) : Promise.resolve([]);
  }

  /** Stored copies whose retention has run out, oldest first. */
  expired(now: number, limit: number): Promise<ResultFileEntity[]> {
    return this.repo
      .createQueryBuilder('f')
      .where('f.expires_at <= :now', { now })
      .orderBy('f.expires_at', 'ASC')
      .take(limit)
      .getMany();
  }

  /**
   * Queues a file again that was not kept (failed, skipped) or no longer is (removed), as new: due at
   * once, no attempt counted. False when its status changed meanwhile (another request queued it).
   */
  async requeue(manager: EntityManager, id: string, now: number): Promise<boolean> {
    const where = '"id" = ? AND "status" IN (?, ?, ?)';
    return (await this.hot.update(manager, ResultFileEntity, freshDownload(now), where, [id, ...REQUEUABLE])) > 0;
  }

  /** Marks a stored copy removed; false when another sweeper already did. */
  async markRemoved(id: string, now: number): Promise<boolean> {
    const changes = { status: 'removed' as const, expiresAt: null, updatedAt: now };
    return (
      (await this.hot.update(undefined, ResultFileEntity, changes, '"id" = ? AND "status" = ?', [id, 'stored'])) > 0
    );
  }

  /**
   * Marks every file of a task removed, whatever its state, and takes back any download's lease (its
   * outcome is then not recorded); the rows changed, with the storage keys of the copies kept.
   */
  discardForTask(taskId: string, now: number): Promise<ResultFileEntity[]> {
    const sql =
      'UPDATE "result_files" SET "status" = \'removed\', "expires_at" = NULL, "next_attempt_at" = NULL, ' +
      '"lease_owner" = NULL, "lease_until" = NULL, "updated_at" = ? WHERE "task_id" = ? AND "status" <> \'removed\'';
    return this.hot.returning(undefined, ResultFileEntity, sql, [now, taskId]);
  }

  /** Stored copies and their bytes (the bytes count against RESULT_STORE_MAX_BYTES): a scan of the stored rows. */
  async storedTotals(): Promise<{ files: number; bytes: number }> {
    const row = await this.hot.first(
      undefined,
      'SELECT count(*) AS "files", coalesce(sum("size_bytes"), 0) AS "bytes" FROM "result_files" WHERE "status" = ?',
      ['stored'],
    );
    return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /**
   * Files waiting for a download. Only those have a `next_attempt_at` (the keep queue's own due
   * index): the range on it reads the waiting rows alone, where counting by status read every row
   * (1.2 against 76 ms on SQLite with 1,000 waiting among a million).
   */
  async pendingCount(): Promise<number> {
    const row = await this.hot.first(
      undefined,
      'SELECT count(*) AS "n" FROM "result_files" WHERE "next_attempt_at" >= ? AND "status" = ?',
      [0, 'pending'],
    );
    return Number(row?.n ?? 0);
  }
}
