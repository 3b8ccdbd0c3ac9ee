import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/time/clock';
import { ResultFilesRepository } from './result-files.repository';

/** How old the store's counted total may be when a download, `/readyz` or `/metrics` reads it. */
export const STORED_BYTES_MAX_AGE_MS = 5000;

/**
 * Bytes of result files in the store, for the `RESULT_STORE_MAX_BYTES` check, `/readyz` and
 * `/metrics`. Counting is a sum over every stored file's row (106 ms on SQLite at a million files,
 * holding the event loop), so it runs at most once per `STORED_BYTES_MAX_AGE_MS`; the files this
 * instance keeps in between are added to the count, so a burst of downloads cannot overshoot the
 * cap. Files deleted in between free their room at the next count.
 */
@Injectable()
export class StoredBytes {
  private counted?: { at: number; bytes: Promise<number>; keptSince: number };

  constructor(
    private readonly files: ResultFilesRepository,
    private readonly clock: Clock,
  ) {}

  async read(): Promise<number> {
    const now = this.clock.nowMs();
    if (!this.counted || now - this.counted.at >= STORED_BYTES_MAX_AGE_MS) {
      const counted = { at: now, bytes: this.files.storedBytes(), keptSince: 0 };
      this.counted = counted;
      // A failed count is not kept: the next read counts again.
      counted.bytes.catch(() => {
        if (this.counted === counted) this.counted = undefined;
      });
    }
    const counted = this.counted;
    return (await counted.bytes) + counted.keptSince;
  }

  /** A file this instance has just recorded as stored. */
  added(bytes: number): void {
    if (this.counted) this.counted.keptSince += bytes;
  }
}
