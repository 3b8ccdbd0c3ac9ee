import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'crypto';
import type { Request } from 'express';
import { GatewayError } from '../platform/errors';
import { ADMIN_TOKEN } from './admin-token';

/** The admin API's bearer token, compared in constant time (hashes make the lengths equal). */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(ADMIN_TOKEN) token: string) {
    this.expected = digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]), this.expected))
      throw GatewayError.unauthorized('Missing or invalid admin token.');
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
