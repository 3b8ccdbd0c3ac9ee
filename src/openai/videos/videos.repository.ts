import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TaskEntity } from '../../core/tasks/entities/task.entity';

export interface VideoPageQuery {
  accountId: string;
  families: readonly string[];
  /** The key's models; null: every model. */
  models: readonly string[] | null;
  after?: string;
  order: 'asc' | 'desc';
  limit: number;
}

/** Reads over the task records as videos: a caller's tasks of the served families, by ID (IDs sort by creation). */
@Injectable()
export class VideosRepository {
  constructor(@InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>) {}

  /** A page of the caller's tasks of these families, rejected creations and deleted tasks left out, ordered by ID. */
  page(query: VideoPageQuery): Promise<TaskEntity[]> {
    const qb = this.tasks
      .createQueryBuilder('t')
      .where('t.account_id = :accountId AND t.family IN (:...families) AND t.phase <> :rejected', {
        accountId: query.accountId,
        families: [...query.families],
        rejected: 'rejected',
      })
      .andWhere('t.deleted_at IS NULL');
    if (query.models)
      qb.andWhere('t.model IN (:...models)', { models: query.models.length ? [...query.models] : [''] });
    if (query.after) qb.andWhere(query.order === 'desc' ? 't.id < :after' : 't.id > :after', { after: query.after });
    return qb
      .orderBy('t.id', query.order === 'desc' ? 'DESC' : 'ASC')
      .take(query.limit)
      .getMany();
  }
}
