import { Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'crypto';
import type { Request } from 'express';
import { GatewayError } from '../platform/errors';
import { CredentialGuard, bearerToken } from '../platform/http/credential-guard';
import { AdminAuthThrottle } from './admin-auth-throttle';
import { ADMIN_TOKEN } from './admin-token';

/**
 * The admin API's bearer token, compared in constant time (hashes make the lengths equal). An
 * address that failed too often is refused before its token is even looked at. On a route with a
 * body this runs before the body is read.
 */
@Injectable()
export class AdminGuard extends CredentialGuard {
  private readonly expected: Buffer;

  constructor(
    @Inject(ADMIN_TOKEN) token: string,
    private readonly throttle: AdminAuthThrottle,
  ) {
    super();
    this.expected = digest(token);
  }

  /** The one check of an admin credential: 429 for an address out of attempts, 401 for anything not accepted. */
  protected async authenticate(req: Request): Promise<void> {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const wait = await this.throttle.blockedFor(address);
    if (wait > 0) throw GatewayError.rateLimited('Too many failed admin authentications; retry later.', wait);
    if (!this.accepts(bearerToken(req))) {
      await this.throttle.failed(address);
      throw GatewayError.unauthorized('Missing or invalid admin token.');
    }
  }

  /** Whether `token` is an admin credential: the admin token. */
  private accepts(token: string | null): boolean {
    return token !== null && timingSafeEqual(digest(token), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
