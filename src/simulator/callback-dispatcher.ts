/**
 * Delivers upstream-style callbacks: a POST of the task's query body at each moment a family
 * schedules (kl: every status change; vd: the terminal state). Delivery errors are
 * ignored, as a fire-and-forget upstream would.
 */
export class CallbackDispatcher {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new AbortController();
  private closed = false;

  /** `renderBody` is called at delivery time so the body reflects the terminal state (and any forced patch). */
  schedule(url: string, atMs: number, renderBody: () => unknown): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.deliver(url, renderBody());
      },
      Math.max(0, atMs - Date.now()),
    );
    timer.unref(); // Never keep the process (or jest) alive for a callback.
    this.timers.add(timer);
  }

  private async deliver(url: string, body: unknown): Promise<void> {
    if (this.closed) return;
    try {
      const signal = AbortSignal.any([this.inFlight.signal, AbortSignal.timeout(10_000)]);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      await response.arrayBuffer().catch(() => undefined);
    } catch {
      // Ignored on purpose: upstreams do not retry forever, and the gateway polls anyway.
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.inFlight.abort();
  }
}

/** Only absolute http(s) URLs are called back. */
export function callbackUrlOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}
