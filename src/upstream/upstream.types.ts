/**
 * What every upstream client speaks towards the task engine. Vendor details (paths, auth, native
 * statuses) stay inside `upstream/<vendor>`; the engine only sees these normalised shapes.
 */
/** A vendor protocol's id (`UpstreamVendor.id`); the list is `UPSTREAM_VENDORS`. */
export type UpstreamFamily = string;

/** One configured upstream account for a family (several per family are allowed). */
export interface UpstreamChannel {
  /** Stable name, stored on each task so sync goes back to the same channel. */
  readonly id: string;
  readonly family: UpstreamFamily;
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** Vendors that accept a key pair (e.g. kl's HS256 JWT): used when both are set. */
  readonly accessKey?: string;
  readonly secretKey?: string;
  /**
   * Public model name -> the name this upstream knows. Channels from `loadChannels` always carry one
   * (the vendors' names by default); unmapped names are sent as they are.
   */
  readonly modelMap?: Readonly<Record<string, string>>;
  /** The built-in simulator: it accepts the public names, so its map need not cover the catalogue. */
  readonly simulated?: boolean;
  /** Its share of new tasks within its priority tier; default 1, 0 takes no new task. */
  readonly weight?: number;
  /** Tiers: a higher number is tried first, a lower tier only when the higher ones have no channel available. */
  readonly priority?: number;
  /** The public model names it serves; absent: every model of its family. */
  readonly models?: readonly string[];
  /** Tasks open on it at once; absent: no limit. */
  readonly maxInFlight?: number;
}

/**
 * Normalised task state. `unknown` is never terminal: the worker keeps polling it. `cancelled`: the
 * vendor stopped the task on a cancel (nothing was produced).
 */
export type UpstreamTaskState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'unknown';

export interface UpstreamVideo {
  id?: string;
  url: string;
  coverUrl?: string;
  watermarkUrl?: string;
  /** Output seconds, when the upstream says. */
  durationSeconds?: number;
}

export interface UpstreamVoice {
  voiceId: string;
  voiceName?: string;
  trialUrl?: string;
  ownedBy?: string;
}

export interface UpstreamTaskSnapshot {
  state: UpstreamTaskState;
  /** The upstream's task ID when the payload carries it (needed when a task was looked up by reference). */
  upstreamTaskId?: string;
  /** The upstream's own status word, as sent (e.g. `RUNNING`, `succeed`, `queueing`). */
  nativeStatus: string;
  /** 0..100 when known. */
  progress?: number;
  failureCode?: string;
  failureReason?: string;
  videos: UpstreamVideo[];
  voices: UpstreamVoice[];
  /** Native credit / usage figures, for information only (never billed from). */
  nativeUsage?: Record<string, unknown>;
  /** The whole native payload, as received. */
  raw: unknown;
}

export interface UpstreamSubmitResult {
  upstreamTaskId: string;
  snapshot: UpstreamTaskSnapshot;
}

/** The upstream answered 4xx: the request itself was refused. Nothing may be charged. */
export class UpstreamRejectedError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly nativeCode: string | number,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamRejectedError';
  }
}

/** The upstream could not be reached, answered 5xx, or its breaker is open. Safe: nothing was accepted. */
export class UpstreamUnavailableError extends Error {
  constructor(
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'UpstreamUnavailableError';
  }
}

/**
 * The upstream refused the channel's own credential or its permissions (a 401/403, or the vendor's
 * own code for it: a wrong, expired or revoked key, a model not opened to the account). A fault of
 * the gateway's configuration, not of the request, and nothing was accepted: the request may go to
 * another channel, and a task on this channel waits until it works again.
 */
export class UpstreamCredentialsRefusedError extends UpstreamUnavailableError {
  constructor(
    message: string,
    httpStatus: number,
    readonly nativeCode: string | number,
  ) {
    super(message, httpStatus);
    this.name = 'UpstreamCredentialsRefusedError';
  }
}

/** The request went out but no answer came (timeout after sending): the upstream may have accepted it. */
export class UpstreamOutcomeUnknownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamOutcomeUnknownError';
  }
}

/** The task is unknown to the upstream (404 on a query). */
export class UpstreamTaskNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamTaskNotFoundError';
  }
}

/**
 * The upstream answered normally but says it has lost the task (e.g. ax `task_status: UNKNOWN`
 * for an invalid or expired task ID). Unlike a bare not-found, the answer itself is the verdict, so
 * one confirming re-poll is enough to end the task; `reason` is the text to end it with.
 */
export class UpstreamTaskLostError extends UpstreamTaskNotFoundError {
  constructor(
    message: string,
    readonly reason: string,
    /** The native status word that said so (e.g. `UNKNOWN`). */
    readonly nativeStatus: string,
  ) {
    super(message);
    this.name = 'UpstreamTaskLostError';
  }
}

/**
 * Out-parameter the client fills in so the caller can emit `Server-Timing: upstream;dur=...`.
 * The client ADDS the milliseconds spent on the wire (every attempt, failed ones included), so one
 * object can collect several calls; start it at `{ upstreamMs: 0 }`. Filled even when the call throws.
 */
export interface UpstreamTiming {
  upstreamMs: number;
}

export interface SubmitOptions {
  /** Gateway callback URL to hand to the upstream (only when PUBLIC_BASE_URL is set). */
  callbackUrl?: string;
  /** Caller-visible ID that helps reconcile an unknown outcome (e.g. kl external_task_id). */
  clientReference?: string;
  /** Upstream latency of this call, added by the client. */
  timing?: UpstreamTiming;
}

export interface FetchOptions {
  /** Upstream latency of this call, added by the client. */
  timing?: UpstreamTiming;
}

/** Options of a cancel call. */
export type CancelOptions = FetchOptions;

/**
 * One client per upstream protocol. `operation` names the upstream call (e.g. `r2v`,
 * `multi_elements`, `custom_voices`); `body` is already in the upstream's wire shape.
 */
export interface UpstreamTaskClient {
  readonly family: UpstreamFamily;
  submit(
    channel: UpstreamChannel,
    operation: string,
    body: Record<string, unknown>,
    options?: SubmitOptions,
  ): Promise<UpstreamSubmitResult>;
  fetch(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options?: FetchOptions,
  ): Promise<UpstreamTaskSnapshot>;
  /**
   * Asks the vendor to cancel the task; resolves once the vendor accepted. A vendor refusing it in
   * the task's state throws `UpstreamRejectedError` with its own message. Absent: the vendor has no
   * cancel at all.
   */
  cancel?(channel: UpstreamChannel, operation: string, upstreamTaskId: string, options?: CancelOptions): Promise<void>;
}
