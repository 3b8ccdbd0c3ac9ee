import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { TransactionRunner } from '../../../platform/database/transaction-runner';
import { ModelGrantEntity } from '../entities/model-grant.entity';

@Injectable()
export class ModelGrantsRepository {
  constructor(
    @InjectRepository(ModelGrantEntity) private readonly repo: Repository<ModelGrantEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  listForAccount(accountId: string, manager?: EntityManager): Promise<ModelGrantEntity[]> {
    return (manager ? manager.getRepository(ModelGrantEntity) : this.repo).find({
      where: { accountId },
      order: { model: 'ASC' },
    });
  }

  /**
   * Replaces an account's grants in one transaction: the caller's `tx`, or one of its own through
   * `TransactionRunner` (on SQLite's one connection a transaction of TypeORM's own would take in
   * any write sent while it is open, and undo it if it rolled back).
   */
  async replaceForAccount(accountId: string, grants: ModelGrantEntity[], tx?: EntityManager): Promise<void> {
    const replace = async (manager: EntityManager) => {
      await manager.delete(ModelGrantEntity, { accountId });
      if (grants.length > 0) await manager.getRepository(ModelGrantEntity).save(grants);
    };
    await (tx ? replace(tx) : this.transactions.run(replace));
  }
}
