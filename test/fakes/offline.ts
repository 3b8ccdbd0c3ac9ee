import { DataSource, EntityManager } from 'typeorm';

/**
 * Never connected: it only gives the real constructors the TypeORM objects they store, so a fake
 * that subclasses a real repository needs no cast, and any method it does not override fails loudly
 * instead of silently passing.
 */
export const offline = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
export const offlineManager: EntityManager = offline.manager;
