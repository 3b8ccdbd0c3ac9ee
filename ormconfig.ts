// Drives the TypeORM CLI (`npm run migration:run`), with the same options the app uses.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ALL_ENTITIES } from './src/entities';
import { dataSourceOptions } from './src/platform/database/data-source-options';

export default new DataSource(dataSourceOptions(process.env.DATABASE_URL, false, ALL_ENTITIES));
