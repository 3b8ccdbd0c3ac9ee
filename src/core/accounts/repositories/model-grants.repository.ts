import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ModelGrantEntity } from '../entities/model-grant.entity';

@Injectable()
export class ModelGrantsRepository {
  constructor(@InjectRepository(ModelGrantEntity) private readonly repo: Repository<ModelGrantEntity>) {}

  listForAccount(accountId: string): Promise<ModelGrantEntity[]> {
    return this.repo.find({ where: { accountId }, order: { model: 'ASC' } });
  }

  /** Replaces an account's grants in one transaction. */
  async replaceForAccount(accountId: string, grants: ModelGrantEntity[]): Promise<void> {
    await this.repo.manager.transaction(async (tx) => {
      await tx.delete(ModelGrantEntity, { accountId });
      if (grants.length > 0) await tx.getRepository(ModelGrantEntity).save(grants);
    });
  }
}
