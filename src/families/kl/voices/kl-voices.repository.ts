import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { isUniqueViolation } from '../../../platform/database/transaction-runner';
import { KlVoiceEntity } from './kl-voice.entity';

/** Queries on `kl_voices`, always scoped to the owning account. */
@Injectable()
export class KlVoicesRepository {
  constructor(@InjectRepository(KlVoiceEntity) private readonly repo: Repository<KlVoiceEntity>) {}

  /** Records the voice unless it is already recorded (a concurrent insert is not an error). */
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
   * the database, not a check in memory).
   */
  async claimDeletion(id: string, accountId: string, deleteTaskId: string, now: number): Promise<boolean> {
    const result = await this.repo.update({ id, accountId, deleteTaskId: IsNull() }, { deleteTaskId, deleteState: 'pending', updatedAt: now });
    return (result.affected ?? 0) === 1;
  }

  async confirmDeletion(id: string, deleteTaskId: string, now: number): Promise<void> {
    await this.repo.update({ id, deleteTaskId }, { deleteState: 'deleted', deletedAt: now, updatedAt: now });
  }

  /** Gives a claim back (the upstream call failed), so that a retry can delete the voice. */
  async releaseDeletion(id: string, deleteTaskId: string, now: number): Promise<void> {
    await this.repo.update({ id, deleteTaskId, deleteState: 'pending' }, { deleteTaskId: null, deleteState: null, updatedAt: now });
  }

  /** Public IDs of the account's deleted voices among those tasks. */
  async deletedIds(accountId: string, taskIds: string[]): Promise<Set<string>> {
    if (taskIds.length === 0) return new Set();
    const rows = await this.repo.find({ select: { id: true }, where: { accountId, taskId: In(taskIds), deleteState: 'deleted' } });
    return new Set(rows.map((row) => row.id));
  }
}
