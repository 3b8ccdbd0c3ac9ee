import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { OperatorRole, requireRole } from '../core/operators/operator-roles';
import { GatewayError } from '../platform/errors';
import { AdminAuthThrottle } from './admin-auth-throttle';
import { setAdminCaller } from './admin-caller';
import { AdminCredentials } from './admin-credentials';
import { REQUIRED_ROLE } from './requires-role.decorator';

/**
 * Who (the bearer token's operator, `AdminCredentials`) and may they (the route's `@RequiresRole`;
 * a route that declares none is the owner's alone). An address that failed too often is refused
 * before its token is even looked at.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly credentials: AdminCredentials,
    private readonly throttle: AdminAuthThrottle,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const wait = await this.throttle.blockedFor(address);
    if (wait > 0) throw GatewayError.rateLimited('Too many failed admin authentications; retry later.', wait);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '');
    const caller = match ? await this.credentials.resolve(match[1]) : null;
    if (!caller) {
      await this.throttle.failed(address);
      throw GatewayError.unauthorized('Missing or invalid admin token.');
    }
    const needed = this.reflector.getAllAndOverride<OperatorRole | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    requireRole(caller.role, needed ?? 'owner');
    setAdminCaller(req, caller);
    return true;
  }
}
