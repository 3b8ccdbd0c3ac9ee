/**
 * Tasks open on each channel (created, not yet ended), for `maxInFlight`. The figure is the last
 * count of open tasks in the shared database (every instance's) plus what this instance opened and
 * closed since; tasks other instances opened since the last count are not seen until the next one,
 * so across instances the limit is approximate by about one count interval (about a second).
 */
export class ChannelLoad {
  private counted = new Map<string, number>();
  private sinceCount = new Map<string, number>();

  inFlight(channelId: string): number {
    return Math.max(0, (this.counted.get(channelId) ?? 0) + (this.sinceCount.get(channelId) ?? 0));
  }

  opened(channelId: string): void {
    this.sinceCount.set(channelId, (this.sinceCount.get(channelId) ?? 0) + 1);
  }

  closed(channelId: string): void {
    this.sinceCount.set(channelId, (this.sinceCount.get(channelId) ?? 0) - 1);
  }

  /**
   * Call right before counting; hand the counts to the function it returns. What was opened or
   * closed while the count ran is kept on top (a task opened meanwhile may be counted twice until
   * the next count: the limit errs on the safe side).
   */
  beginCount(): (counts: ReadonlyMap<string, number>) => void {
    const before = new Map(this.sinceCount);
    return (counts) => {
      this.counted = new Map(counts);
      const after = new Map<string, number>();
      for (const [id, n] of this.sinceCount) {
        const delta = n - (before.get(id) ?? 0);
        if (delta !== 0) after.set(id, delta);
      }
      this.sinceCount = after;
    };
  }
}
