import { Injectable, Optional } from '@nestjs/common';
import * as jwt from 'jsonwebtoken';
import { Clock, SystemClock } from '../../platform/time/clock';
import { UpstreamChannel, UpstreamUnavailableError } from '../upstream.types';

/** Lifetime of a signed token, and the clock-skew allowance before it (wire doc: exp = now + 1800 s, nbf = now - 5 s). */
export const KL_JWT_TTL_SECONDS = 1800;
export const KL_JWT_NOT_BEFORE_SKEW_SECONDS = 5;
/** A cached token is replaced this long before it expires, so no request leaves with an almost-dead token. */
export const KL_JWT_REFRESH_MARGIN_SECONDS = 60;

interface CachedToken {
  readonly accessKey: string;
  readonly token: string;
  readonly refreshAtMs: number;
}

/**
 * kl's bearer token: the channel's API key, or, when it has an access/secret key pair, an
 * HS256 JWT signed with the secret key, cached per channel until shortly before it expires.
 */
@Injectable()
export class KlAuth {
  private readonly cache = new Map<string, CachedToken>();
  private readonly clock: Clock;

  constructor(@Optional() clock?: Clock) {
    this.clock = clock ?? new SystemClock();
  }

  tokenFor(channel: UpstreamChannel): string {
    if (channel.accessKey && channel.secretKey) return this.jwtFor(channel, channel.accessKey, channel.secretKey);
    if (channel.apiKey) return channel.apiKey;
    throw new UpstreamUnavailableError(`Upstream channel ${channel.id} has no credentials configured.`);
  }

  private jwtFor(channel: UpstreamChannel, accessKey: string, secretKey: string): string {
    const nowMs = this.clock.nowMs();
    const cached = this.cache.get(channel.id);
    if (cached && cached.accessKey === accessKey && nowMs < cached.refreshAtMs) return cached.token;
    const nowSeconds = Math.floor(nowMs / 1000);
    const token = jwt.sign(
      { iss: accessKey, exp: nowSeconds + KL_JWT_TTL_SECONDS, nbf: nowSeconds - KL_JWT_NOT_BEFORE_SKEW_SECONDS },
      secretKey,
      {
        algorithm: 'HS256',
        header: { alg: 'HS256', typ: 'JWT' },
        // Exactly the claims the wire protocol names; no iat.
        noTimestamp: true,
      },
    );
    const refreshAtMs = (nowSeconds + KL_JWT_TTL_SECONDS - KL_JWT_REFRESH_MARGIN_SECONDS) * 1000;
    this.cache.set(channel.id, { accessKey, token, refreshAtMs });
    return token;
  }
}
