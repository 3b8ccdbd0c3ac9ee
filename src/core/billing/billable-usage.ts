/**
 * The cost-affecting facts of one request, as each family's rules extract them (SPEC.md names
 * these parameters). Pricing turns them into integer units; nothing here is money yet.
 */
export type BillableUsage =
  | {
      kind: 'ax-r2v';
      /** `720P` / `1080P`; the old protocol's `size` is mapped to its tier. */
      resolution: '720P' | '1080P';
      durationSeconds: number;
      referenceImages: number;
      referenceVideos: number;
      /** Flash model only: true sound, false silent; null where the model has no audio switch. */
      audio: boolean | null;
    }
  | {
      kind: 'vd-r2v';
      mode: 'subject' | 'non-subject';
      resolution: string;
      durationSeconds: number;
      audio: boolean;
      offPeak: boolean;
      referenceVideos: number;
    }
  | { kind: 'kl-edit'; mode: 'std' | 'pro'; durationSeconds: 5 | 10 }
  | { kind: 'kl-voice' }
  | { kind: 'kl-session-op'; operation: 'init' | 'add' | 'delete' | 'clear' | 'preview' };

/** What the gateway knows of a finished task when it settles (its own rule, not native usage). */
export interface TaskOutcome {
  /** Output seconds of the produced video, when the upstream reports them per output. */
  outputSeconds?: number;
}
