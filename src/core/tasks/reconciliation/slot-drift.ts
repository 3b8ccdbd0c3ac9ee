import { SlotCount } from './reconciliation.repository';

/**
 * Decides which in-flight counters to correct. A create takes its slot a moment before its task
 * row exists, and a finish frees it a moment after: a single look can catch either in passing.
 * Only a difference seen with the same figures on two consecutive passes is a real drift.
 */
export class SlotDriftTracker {
  private readonly seen = new Map<string, string>();

  /** The accounts of this page whose drift is now confirmed (and forgotten, to be corrected). */
  confirm(page: SlotCount[]): SlotCount[] {
    const confirmed: SlotCount[] = [];
    for (const row of page) {
      if (row.inFlight === row.open) {
        this.seen.delete(row.accountId);
        continue;
      }
      const figures = `${row.inFlight}/${row.open}`;
      if (this.seen.get(row.accountId) === figures) {
        confirmed.push(row);
        this.seen.delete(row.accountId);
      } else {
        this.seen.set(row.accountId, figures);
      }
    }
    return confirmed;
  }
}
