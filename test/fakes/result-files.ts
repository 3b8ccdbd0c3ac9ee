import { EntityManager, Repository } from 'typeorm';
import { ResultFileEntity } from '../../src/core/result-keeping/result-file.entity';
import { REQUEUABLE, ResultFilesRepository } from '../../src/core/result-keeping/result-files.repository';
import { offline, offlineManager } from './offline';

/** The kept-file rows in memory, for the services that read them (serving, the video API) and queue them again. */
export class InMemoryResultFiles extends ResultFilesRepository {
  readonly rows = new Map<string, ResultFileEntity>();

  constructor(...files: ResultFileEntity[]) {
    super(new Repository(ResultFileEntity, offlineManager), offline);
    for (const file of files) this.rows.set(file.id, { ...file });
  }

  override async findById(id: string): Promise<ResultFileEntity | null> {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }

  override async forTask(taskId: string): Promise<ResultFileEntity[]> {
    return [...this.rows.values()]
      .filter((f) => f.taskId === taskId)
      .sort((a, b) => a.slot.localeCompare(b.slot))
      .map((f) => ({ ...f }));
  }

  override async forTasks(taskIds: string[]): Promise<ResultFileEntity[]> {
    return [...this.rows.values()].filter((f) => taskIds.includes(f.taskId)).map((f) => ({ ...f }));
  }

  override async add(_manager: EntityManager | undefined, files: ResultFileEntity[]): Promise<void> {
    for (const file of files) this.rows.set(file.id, { ...file });
  }

  /** As the SQL: only a file not kept (failed, skipped, removed) goes back to pending, due now. */
  override async requeue(_manager: EntityManager, id: string, now: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || !REQUEUABLE.includes(row.status)) return false;
    Object.assign(row, { status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null, updatedAt: now });
    return true;
  }
}
