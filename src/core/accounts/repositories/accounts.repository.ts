import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AccountEntity } from '../entities/account.entity';

@Injectable()
export class AccountsRepository {
  constructor(@InjectRepository(AccountEntity) private readonly repo: Repository<AccountEntity>) {}

  findById(id: string): Promise<AccountEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<AccountEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo.createQueryBuilder('a').where('a.id IN (:...ids)', { ids }).getMany();
  }

  save(account: AccountEntity, manager?: EntityManager): Promise<AccountEntity> {
    return (manager ? manager.getRepository(AccountEntity) : this.repo).save(account);
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  all(): Promise<AccountEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }

  /**
   * Takes one in-flight slot if the account is under its cap, in a single conditional UPDATE so
   * that concurrent requests on any number of instances can never exceed it.
   */
  async tryTakeTaskSlot(accountId: string, cap: number, manager?: EntityManager): Promise<boolean> {
    const result = await (manager ?? this.repo.manager)
      .createQueryBuilder()
      .update(AccountEntity)
      .set({ inFlightTasks: () => 'in_flight_tasks + 1' })
      .where('id = :accountId AND in_flight_tasks < :cap', { accountId, cap })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  async releaseTaskSlot(accountId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.repo.manager)
      .createQueryBuilder()
      .update(AccountEntity)
      .set({ inFlightTasks: () => 'in_flight_tasks - 1' })
      .where('id = :accountId AND in_flight_tasks > 0', { accountId })
      .execute();
  }
}
