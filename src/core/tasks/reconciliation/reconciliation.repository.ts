import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { TaskEntity, TaskPhase } from '../entities/task.entity';

const OPEN_PHASES: TaskPhase[] = ['submitting', 'active'];
/**
 * Written out, not bound: the partial indexes of migration 1764500000000 hold only these rows, and
 * a planner can only prove a query fits a partial index from literals (on SQLite and PostgreSQL).
 */
const OPEN_PHASE_SQL = `t.phase IN (${OPEN_PHASES.map((p) => `'${p}'`).join(', ')})`;

/** One account's in-flight counter beside the number of its open tasks. */
export interface SlotCount {
  accountId: string;
  inFlight: number;
  open: number;
}

/**
 * The reconciliation sweep's queries. Each is bounded by a LIMIT or a single key and starts
 * from an index: (billing_state, finished_at) for ended tasks still holding money, the accounts
 * primary key for the keyset scan, and (account_id, phase) for counting an account's open tasks.
 */
@Injectable()
export class ReconciliationRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly dataSource: DataSource,
  ) {}

  /** Terminal tasks that ended before `endedBefore` and still hold their estimate, oldest first. */
  terminalStillHeld(endedBefore: number, limit: number): Promise<TaskEntity[]> {
    return this.tasks
      .createQueryBuilder('t')
      .where(`t.billing_state = 'held' AND t.finished_at <= :endedBefore`, { endedBefore })
      .orderBy('t.finished_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** The next `limit` accounts after `afterId` (keyset, by primary key) with their open-task counts. */
  async slotCounts(afterId: string, limit: number): Promise<SlotCount[]> {
    const rows: Array<{ id: string; in_flight: string | number; open: string | number }> = await this.dataSource
      .createQueryBuilder()
      .select('a.id', 'id')
      .addSelect('a.in_flight_tasks', 'in_flight')
      .addSelect(
        (sub) => sub.select('COUNT(*)').from(TaskEntity, 't').where(`t.account_id = a.id AND ${OPEN_PHASE_SQL}`),
        'open',
      )
      .from(AccountEntity, 'a')
      .where('a.id > :afterId', { afterId })
      .orderBy('a.id', 'ASC')
      .limit(limit)
      .getRawMany();
    return rows.map((r) => ({ accountId: r.id, inFlight: Number(r.in_flight), open: Number(r.open) }));
  }

  /**
   * Sets the counter to the open-task count, counted in the same statement, only if it still
   * reads `observed` (a create or finish that moved it since is left alone). True if corrected.
   */
  async recountSlots(accountId: string, observed: number): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(AccountEntity)
      .set({
        inFlightTasks: () => `(SELECT COUNT(*) FROM tasks t WHERE t.account_id = accounts.id AND ${OPEN_PHASE_SQL})`,
      })
      .where('id = :accountId AND in_flight_tasks = :observed', { accountId, observed })
      .execute();
    return (result.affected ?? 0) === 1;
  }
}
