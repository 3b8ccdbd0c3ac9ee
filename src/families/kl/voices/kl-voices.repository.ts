import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { isUniqueViolation } from '../../../platform/database/transaction-runner';
import { publicVoiceId } from '../tasks/kl-result-ids';
import { KlVoiceEntity } from './kl-voice.entity';

/**
 * A deletion claimed longer ago than this is taken to have died half-way (e.g. the upstream
 * deleted the voice but marking it deleted failed) and can be claimed again; far beyond any
 * upstream call (timeout 30 s by default), so a live deletion is never claimed twice.
 */
export const KL_DELETE_CLAIM_TTL_MS = 5 * 60 * 1000;

/**
 * Records every voice a succeeded `custom_voices` task produced as its account's, under the
 * gateway's public voice ID, in the transaction that ends the task (the family action's
 * `onSucceeded`). Inserting a voice that is already recorded does nothing.
 */
export async function recordSucceededVoices(task: TaskEntity, tx: EntityManager): Promise<void> {
  const now = task.finishedAt ?? task.updatedAt;
  const rows = (task.result?.voices ?? []).flatMap((voice, index) =>
    voice.voiceId
      ? [
          {
            id: publicVoiceId(task.id, index),
            accountId: task.accountId,
            taskId: task.id,
            voiceIndex: index,
            upstreamVoiceId: voice.voiceId,
            deleteTaskId: null,
            deleteState: null,
            deletedAt: null,
            createdAt: now,
            updatedAt: now,
          },
        ]
      : [],
  );
  if (rows.length === 0) return;
  // INSERT OR IGNORE / ON CONFLICT DO NOTHING: a conflict must not abort the PostgreSQL transaction.
  await tx
    .createQueryBuilder()
    .insert()
    .into(KlVoiceEntity)
    .values(rows as never)
    .orIgnore()
    .updateEntity(false)
    .execute();
}

/** Queries on `kl_voices`, always scoped to the owning account. */
@Injectable()
export class KlVoicesRepository {
  constructor(@InjectRepository(KlVoiceEntity) private readonly repo: Repository<KlVoiceEntity>) {}

  /**
   * Records the voice unless it is already recorded (a concurrent insert is not an error). Voices
   * are recorded when their task succeeds; this also records those of a succeeded task that has none.
   */
  async ensure(voice: Omit<KlVoiceEntity, 'deleteTaskId' | 'deleteState' | 'deletedAt'>): Promise<void> {
    try {
      await this.repo.insert({ ...voice, deleteTaskId: null, deleteState: null, deletedAt: null });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  findOwned(id: string, accountId: string): Promise<KlVoiceEntity | null> {
    return this.repo.findOneBy({ id, accountId });
  }

  /**
   * Claims the deletion: true for exactly one caller, however many race (a conditional update in
   * the database, not a check in memory). A claim still pending after `KL_DELETE_CLAIM_TTL_MS`
   * (its `updated_at` is the claim time) was abandoned and can be claimed again.
   */
  async claimDeletion(id: string, accountId: string, deleteTaskId: string, now: number): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update(KlVoiceEntity)
      .set({ deleteTaskId, deleteState: 'pending', updatedAt: now })
      .where('id = :id AND account_id = :accountId', { id, accountId })
      .andWhere(
        new Brackets((w) =>
          w.where('delete_task_id IS NULL').orWhere("delete_state = 'pending' AND updated_at < :staleBefore", {
            staleBefore: now - KL_DELETE_CLAIM_TTL_MS,
          }),
        ),
      )
      .execute();
    return (result.affected ?? 0) === 1;
  }

  async confirmDeletion(id: string, deleteTaskId: string, now: number): Promise<void> {
    await this.repo.update({ id, deleteTaskId }, { deleteState: 'deleted', deletedAt: now, updatedAt: now });
  }

  /** Gives a claim back (the upstream call failed), so that a retry can delete the voice. */
  async releaseDeletion(id: string, deleteTaskId: string, now: number): Promise<void> {
    await this.repo.update(
      { id, deleteTaskId, deleteState: 'pending' },
      { deleteTaskId: null, deleteState: null, updatedAt: now },
    );
  }

  /** Public IDs of the account's deleted voices among those tasks. */
  async deletedIds(accountId: string, taskIds: string[]): Promise<Set<string>> {
    if (taskIds.length === 0) return new Set();
    const rows = await this.repo.find({
      select: { id: true },
      where: { accountId, taskId: In(taskIds), deleteState: 'deleted' },
    });
    return new Set(rows.map((row) => row.id));
  }
}
