import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Actor } from '../core/audit/audit.types';
import { csrfMatches } from '../core/operators/operator-sessions.service';
import { OperatorRole, requireRole } from '../core/operators/operator-roles';
import { GatewayError } from '../platform/errors';
import { clientAddress } from '../platform/http/client-address';
import { CredentialGuard, bearerToken } from '../platform/http/credential-guard';
import { AdminAuthThrottle } from './admin-auth-throttle';
import { adminCaller, setAdminCaller } from './admin-caller';
import { AdminCredentials } from './admin-credentials';
import { REQUIRED_ROLE } from './requires-role.decorator';
import { CSRF_HEADER } from './sso/console-cookies';

/** Methods that change nothing: the only ones a session cookie alone may make. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who (the bearer token's operator, or the console session's person: `AdminCredentials`) and may they (the route's `@RequiresRole`;
 * a route that declares none is the owner's alone). An address that failed too often is refused
 * before its token is even looked at; one that succeeds has its earlier failures cleared. On a
 * route with a body, who is asked before the body is read.
 */
@Injectable()
export class AdminGuard extends CredentialGuard {
  constructor(
    private readonly credentials: AdminCredentials,
    private readonly throttle: AdminAuthThrottle,
    private readonly reflector: Reflector,
  ) {
    super();
  }

  /** The one check of an admin credential: 429 for an address out of attempts, 401 for anything not accepted. */
  protected async authenticate(req: Request): Promise<void> {
    const address = clientAddress(req) ?? 'unknown';
    const standing = await this.throttle.standing(address);
    if (standing.blockedForS > 0)
      throw GatewayError.rateLimited('Too many failed admin authentications; retry later.', standing.blockedForS);
    const token = bearerToken(req);
    const caller = token === null ? await this.sessionCaller(req) : await this.credentials.resolve(token);
    // No credential at all counts too: probing the admin routes without one is a failure like any other.
    if (!caller) {
      await this.throttle.failed(address);
      throw GatewayError.unauthorized('Missing or invalid admin token.');
    }
    // Only an address with failures to clear costs a store call.
    if (standing.failures > 0) await this.throttle.succeeded(address);
    setAdminCaller(req, caller);
  }

  /**
   * The person a console session cookie belongs to. A cookie travels with any request the browser
   * makes, so a change (anything but a read) must also carry the session's CSRF token in a header,
   * which another site's page cannot read nor set.
   */
  private async sessionCaller(req: Request): Promise<Actor | null> {
    const session = await this.credentials.consoleSession(req);
    if (!session) return null;
    const sent = req.headers[CSRF_HEADER];
    if (!READS.has(req.method) && !csrfMatches(session, typeof sent === 'string' ? sent : undefined))
      throw GatewayError.forbidden(
        'A change made with the console session must carry its X-CSRF-Token header.',
        CSRF_HEADER,
      );
    return session.actor;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const needed = this.reflector.getAllAndOverride<OperatorRole | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const caller = adminCaller(context.switchToHttp().getRequest<Request>());
    requireRole(caller.role, needed ?? 'owner');
    return true;
  }
}
