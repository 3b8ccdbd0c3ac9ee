import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'crypto';
import type { Request } from 'express';
import { GatewayError } from '../platform/errors';
import { AdminAuthThrottle } from './admin-auth-throttle';
import { ADMIN_TOKEN } from './admin-token';

/**
 * The admin API's bearer token, compared in constant time (hashes make the lengths equal). An
 * address that failed too often is refused before its token is even looked at.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    @Inject(ADMIN_TOKEN) token: string,
    private readonly throttle: AdminAuthThrottle,
  ) {
    this.expected = digest(token);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const wait = await this.throttle.blockedFor(address);
    if (wait > 0) throw GatewayError.rateLimited('Too many failed admin authentications; retry later.', wait);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '');
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      await this.throttle.failed(address);
      throw GatewayError.unauthorized('Missing or invalid admin token.');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
