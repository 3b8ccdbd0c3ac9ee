import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TransactionRunner } from '../../../platform/database/transaction-runner';
import { ModelGrantEntity } from '../entities/model-grant.entity';

@Injectable()
export class ModelGrantsRepository {
  constructor(
    @InjectRepository(ModelGrantEntity) private readonly repo: Repository<ModelGrantEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  listForAccount(accountId: string): Promise<ModelGrantEntity[]> {
    return this.repo.find({ where: { accountId }, order: { model: 'ASC' } });
  }

  /**
   * Replaces an account's grants in one transaction, through `TransactionRunner`: on SQLite's one
   * connection a transaction of TypeORM's own would take in any write sent while it is open (and
   * undo it if it rolled back).
   */
  async replaceForAccount(accountId: string, grants: ModelGrantEntity[]): Promise<void> {
    await this.transactions.run(async (tx) => {
      await tx.delete(ModelGrantEntity, { accountId });
      if (grants.length > 0) await tx.getRepository(ModelGrantEntity).save(grants);
    });
  }
}
