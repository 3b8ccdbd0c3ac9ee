import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/time/clock';
import { ResultFilesRepository } from './result-files.repository';

/** How old the store's counted totals may be when a download, `/readyz` or `/metrics` reads them. */
export const STORED_TOTALS_MAX_AGE_MS = 5000;

/** Result files in the store and their bytes. */
export interface StoreTotals {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Files and bytes in the store, for the `RESULT_STORE_MAX_BYTES` check, `/readyz` and `/metrics`.
 * Counting is a scan of every stored file's row (106 ms on SQLite at a million files, holding the
 * event loop), so it runs at most once per `STORED_TOTALS_MAX_AGE_MS`; the files this instance keeps
 * in between are added to the count, so a burst of downloads cannot overshoot the cap. Files
 * deleted in between free their room at the next count.
 */
@Injectable()
export class StoredTotals {
  private counted?: { at: number; totals: Promise<StoreTotals>; files: number; bytes: number };

  constructor(
    private readonly files: ResultFilesRepository,
    private readonly clock: Clock,
  ) {}

  async read(): Promise<StoreTotals> {
    const now = this.clock.nowMs();
    if (!this.counted || now - this.counted.at >= STORED_TOTALS_MAX_AGE_MS) {
      const counted = { at: now, totals: this.files.storedTotals(), files: 0, bytes: 0 };
      this.counted = counted;
      // A failed count is not kept: the next read counts again.
      counted.totals.catch(() => {
        if (this.counted === counted) this.counted = undefined;
      });
    }
    const counted = this.counted;
    const totals = await counted.totals;
    return { files: totals.files + counted.files, bytes: totals.bytes + counted.bytes };
  }

  /** A file of `bytes` this instance has just recorded as stored. */
  added(bytes: number): void {
    if (!this.counted) return;
    this.counted.files += 1;
    this.counted.bytes += bytes;
  }
}
