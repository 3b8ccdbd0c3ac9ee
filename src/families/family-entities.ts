import { FAMILIES } from './index';
import type { EntityClass, MigrationClass } from '../platform/database/data-source-options';

/** Entities that families own, for the TypeORM CLI list (inside the app each family module registers its own). */
export const FAMILY_ENTITIES: readonly EntityClass[] = FAMILIES.flatMap((family) => family.entities ?? []);

/** The families' migrations, for the TypeORM CLI (the app takes them from its `FamilyRegistry`). */
export const FAMILY_MIGRATIONS: readonly MigrationClass[] = FAMILIES.flatMap((family) => family.migrations ?? []);
