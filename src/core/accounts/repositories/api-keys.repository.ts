import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiKeyEntity } from '../entities/api-key.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>) {}

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ keyHash });
  }

  findById(id: string, manager?: EntityManager): Promise<ApiKeyEntity | null> {
    return (manager ? manager.getRepository(ApiKeyEntity) : this.repo).findOneBy({ id });
  }

  listForAccount(accountId: string): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { accountId }, order: { createdAt: 'ASC' } });
  }

  save(key: ApiKeyEntity, manager?: EntityManager): Promise<ApiKeyEntity> {
    return (manager ? manager.getRepository(ApiKeyEntity) : this.repo).save(key);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }
}
