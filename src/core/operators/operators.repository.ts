import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { OperatorEntity } from './operator.entity';

@Injectable()
export class OperatorsRepository {
  constructor(@InjectRepository(OperatorEntity) private readonly repo: Repository<OperatorEntity>) {}

  findByHash(tokenHash: string): Promise<OperatorEntity | null> {
    return this.repo.findOneBy({ tokenHash });
  }

  findById(id: string, tx?: EntityManager): Promise<OperatorEntity | null> {
    return (tx ? tx.getRepository(OperatorEntity) : this.repo).findOneBy({ id });
  }

  /** Oldest first. */
  all(): Promise<OperatorEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async insert(tx: EntityManager, operator: OperatorEntity): Promise<void> {
    await tx.getRepository(OperatorEntity).insert(operator);
  }

  async save(tx: EntityManager, operator: OperatorEntity): Promise<void> {
    await tx.getRepository(OperatorEntity).save(operator);
  }
}
