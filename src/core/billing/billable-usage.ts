/**
 * The cost-affecting facts of one request, as its family's rules extract them (the request
 * parameters that change the price). Each family declares its own kinds and the pricing rule of each; the core
 * only carries them from creation to settlement. Nothing here is money yet.
 */
export interface BillableUsage {
  /** Names the family's pricing rule, e.g. `ax-r2v`, `kl-edit`. */
  readonly kind: string;
  /** The family's facts (stored as JSON with the task, shown in its usage row). */
  readonly [fact: string]: unknown;
}

/** What the gateway knows of a finished task when it settles (its own rule, not native usage). */
export interface TaskOutcome {
  /** Output seconds of the produced video, when the upstream reports them per output. */
  outputSeconds?: number;
}
