// Drives the TypeORM CLI (`npm run migration:run`), with the same options the app uses.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ALL_ENTITIES } from './src/entities';
import { FAMILY_MIGRATIONS } from './src/families/family-entities';
import { CORE_MIGRATIONS, dataSourceOptions } from './src/platform/database/data-source-options';

export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL, false, ALL_ENTITIES, {}, [...CORE_MIGRATIONS, ...FAMILY_MIGRATIONS]),
);
