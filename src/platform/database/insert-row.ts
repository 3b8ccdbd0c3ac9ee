import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { fastPathsOn } from '../config/fast-paths';

/**
 * One INSERT and nothing else: TypeORM's default insert reads generated and default columns back
 * (an extra SELECT on SQLite) and writes them into the caller's object (raw, unconverted, on
 * PostgreSQL). Hot paths never need either.
 *
 * Hand-written because: one statement instead of two per insert on SQLite (docs/hand-written.md,
 * "insertRow"). With fast paths off (`FAST_PATHS=false`), TypeORM's own `insert` (of a copy: it
 * writes what it reads back into the object it is given).
 */
export async function insertRow<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: T,
): Promise<void> {
  if (!fastPathsOn('insert-row')) {
    await manager.insert(entity, { ...values });
    return;
  }
  await manager
    .createQueryBuilder()
    .insert()
    .into(entity)
    .values(values as never)
    .updateEntity(false)
    .execute();
}
