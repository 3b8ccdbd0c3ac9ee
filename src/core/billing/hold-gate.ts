import type { EntityManager } from 'typeorm';

/**
 * The once-only gate of settlement: moves one hold's owner (a task) out of `held` exactly once,
 * inside the caller's transaction; true for the one caller that did. The task record, which owns
 * the billing state, implements it (`TasksRepository`), so billing never writes a task row.
 */
export abstract class HoldGate {
  abstract close(
    tx: EntityManager,
    taskId: string,
    to: 'settled' | 'released',
    finalCharge: number | null,
    priceVersion: number | null,
  ): Promise<boolean>;
}
