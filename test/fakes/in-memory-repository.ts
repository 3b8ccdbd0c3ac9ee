import {
  DeleteResult,
  FindOperator,
  FindOptionsWhere,
  InsertResult,
  ObjectLiteral,
  Repository,
  UpdateResult,
} from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { offlineManager } from './offline';

type Where<T> = FindOptionsWhere<T> | FindOptionsWhere<T>[];

/**
 * A TypeORM repository over an array, for services that take `Repository<Entity>` itself: the
 * `...By` reads, `insert`, `update` and `delete` with plain values or `IsNull()` as criteria. Rows
 * handed out are copies; any other method is TypeORM's own and fails, the DataSource being offline.
 */
export class InMemoryRepository<T extends ObjectLiteral> extends Repository<T> {
  rows: T[] = [];

  constructor(
    private readonly entity: new () => T,
    ...rows: T[]
  ) {
    super(entity, offlineManager);
    this.rows = rows.map((row) => this.copy(row));
  }

  override async findOneBy(where: Where<T>): Promise<T | null> {
    const row = this.rows.find((r) => matches(r, where));
    return row ? this.copy(row) : null;
  }

  override async findBy(where: Where<T>): Promise<T[]> {
    return this.rows.filter((r) => matches(r, where)).map((r) => this.copy(r));
  }

  override async insert(entity: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[]): Promise<InsertResult> {
    for (const row of Array.isArray(entity) ? entity : [entity]) this.rows.push(this.copy(row as T));
    return { identifiers: [], generatedMaps: [], raw: [] };
  }

  override async update(criteria: unknown, changes: QueryDeepPartialEntity<T>): Promise<UpdateResult> {
    const hit = this.rows.filter((r) => matches(r, criteria as Where<T>));
    for (const row of hit) Object.assign(row, changes);
    return { affected: hit.length, raw: [], generatedMaps: [] };
  }

  override async delete(criteria: unknown): Promise<DeleteResult> {
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => !matches(r, criteria as Where<T>));
    return { affected: before - this.rows.length, raw: [] };
  }

  private copy(row: T): T {
    return Object.assign(new this.entity(), row);
  }
}

function matches<T extends ObjectLiteral>(row: T, where: Where<T>): boolean {
  if (Array.isArray(where)) return where.some((w) => matches(row, w));
  return Object.entries(where).every(([column, wanted]) => {
    const value: unknown = row[column];
    if (wanted instanceof FindOperator) {
      if (wanted.type === 'isNull') return value === null || value === undefined;
      throw new Error(`InMemoryRepository does not model ${wanted.type}()`);
    }
    return value === wanted;
  });
}
