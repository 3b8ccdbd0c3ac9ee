import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../src/platform/database/transaction-runner';
import { offline, offlineManager } from './offline';

/** Runs the work at once on the offline manager (the fakes ignore it). No rollback is modelled. */
export class FakeTransactionRunner extends TransactionRunner {
  runs = 0;

  constructor() {
    super(offline);
  }

  override run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    this.runs += 1;
    return work(offlineManager);
  }

  override runGrouped<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    this.runs += 1;
    return work(offlineManager);
  }

  override runAtomic<T>(work: (manager: undefined) => Promise<T>): Promise<T> {
    this.runs += 1;
    return work(undefined);
  }
}
