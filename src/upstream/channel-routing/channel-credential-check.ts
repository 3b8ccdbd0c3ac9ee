import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { UpstreamClients } from '../upstream-clients';
import {
  UpstreamChannel,
  UpstreamCredentialsRefusedError,
  UpstreamRejectedError,
  UpstreamTaskLostError,
  UpstreamTaskNotFoundError,
  UpstreamUnavailableError,
} from '../upstream.types';
import type { UpstreamVendor } from '../vendor';
import { UPSTREAM_VENDOR_LIST } from './channel-registry';

/**
 * What the upstream said to a query made with a channel's credential: `accepted` (it answered the
 * query itself, even "no such task"), `refused` (it refused the credential or its permissions) or
 * `unknown` (no verdict: unreachable, 5xx, breaker open).
 */
export interface CredentialCheckResult {
  readonly credential: 'accepted' | 'refused' | 'unknown';
  readonly httpStatus: number | null;
  readonly code: string | null;
  readonly message: string;
  readonly latencyMs: number;
}

/** A task ID no vendor has issued: the check's query can only be answered "not found" or refused. */
const PROBE_PREFIX = 'gw-credential-check-';

/**
 * Checks a channel's credential at no cost at the vendor: a query of a task that does not exist,
 * through the channel's own client (so the vendor's own auth scheme is what is tested). Creates
 * nothing, and changes nothing in the registry: a check is not a create.
 */
@Injectable()
export class ChannelCredentialCheck {
  constructor(
    private readonly clients: UpstreamClients,
    @Inject(UPSTREAM_VENDOR_LIST) private readonly vendors: readonly UpstreamVendor[],
  ) {}

  async check(channel: UpstreamChannel): Promise<CredentialCheckResult> {
    const operation = this.vendors.find((vendor) => vendor.id === channel.family)?.smokePlan.operation ?? '';
    const started = Date.now();
    const verdict = await this.clients
      .clientFor(channel.family)
      .fetch(channel, operation, `${PROBE_PREFIX}${randomUUID()}`)
      .then(
        () => answered('accepted', 200, null, 'The upstream answered the query.'),
        (error: unknown) => classify(error),
      );
    return { ...verdict, latencyMs: Date.now() - started };
  }
}

function answered(
  credential: CredentialCheckResult['credential'],
  httpStatus: number | null,
  code: string | number | null,
  message: string,
): Omit<CredentialCheckResult, 'latencyMs'> {
  return { credential, httpStatus, code: code === null ? null : String(code), message };
}

/** The client's error as a verdict; a refused credential is tested first (it is also "unavailable"). */
function classify(error: unknown): Omit<CredentialCheckResult, 'latencyMs'> {
  if (error instanceof UpstreamCredentialsRefusedError)
    return answered('refused', error.httpStatus ?? null, error.nativeCode, error.message);
  if (error instanceof UpstreamTaskLostError)
    return answered('accepted', 200, error.nativeStatus, `${error.message} (the query was answered)`);
  if (error instanceof UpstreamTaskNotFoundError)
    return answered('accepted', 404, null, `${error.message} (the query was answered)`);
  if (error instanceof UpstreamRejectedError)
    return answered('accepted', error.httpStatus, error.nativeCode, error.message);
  if (error instanceof UpstreamUnavailableError)
    return answered('unknown', error.httpStatus ?? null, null, error.message);
  return answered('unknown', null, null, error instanceof Error ? error.message : String(error));
}
