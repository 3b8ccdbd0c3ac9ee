import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { HotSql } from '../../../platform/database/hot-sql';
import { AccountEntity } from '../entities/account.entity';

@Injectable()
export class AccountsRepository {
  private readonly hot: HotSql;

  constructor(@InjectRepository(AccountEntity) private readonly repo: Repository<AccountEntity>) {
    this.hot = HotSql.of(repo.manager.connection);
  }

  findById(id: string, manager?: EntityManager): Promise<AccountEntity | null> {
    return (manager ? manager.getRepository(AccountEntity) : this.repo).findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<AccountEntity[]> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.repo.createQueryBuilder('a').where('a.id IN (:...ids)', { ids }).getMany();
  }

  save(account: AccountEntity, manager?: EntityManager): Promise<AccountEntity> {
    return (manager ? manager.getRepository(AccountEntity) : this.repo).save(account);
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  all(manager?: EntityManager): Promise<AccountEntity[]> {
    return (manager ? manager.getRepository(AccountEntity) : this.repo).find({ order: { createdAt: 'ASC' } });
  }

  async releaseTaskSlot(accountId: string, manager?: EntityManager): Promise<void> {
    await this.hot.run(
      manager,
      'UPDATE "accounts" SET "in_flight_tasks" = "in_flight_tasks" - 1 WHERE "id" = ? AND "in_flight_tasks" > 0',
      [accountId],
    );
  }
}
