import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { GatewayError } from '../../../platform/errors';
import { CredentialGuard, bearerToken } from '../../../platform/http/credential-guard';
import { PrincipalService } from '../principal.service';
import { AuthenticatedRequest } from './authenticated-request';

/**
 * Who: `Authorization: Bearer <API key>` -> account, kept on the request as its principal. Anything
 * else is 401 `invalid_api_key`. On a route with a body this runs before the body is read.
 */
@Injectable()
export class ApiKeyGuard extends CredentialGuard {
  constructor(private readonly principals: PrincipalService) {
    super();
  }

  protected async authenticate(req: Request): Promise<void> {
    const secret = bearerToken(req);
    if (secret === null) {
      // A header that is there but not of the form is told so: "missing" would send the caller looking elsewhere.
      const sent = req.headers.authorization !== undefined && req.headers.authorization.trim() !== '';
      throw GatewayError.unauthorized(
        sent
          ? 'The Authorization header is not of the form "Bearer <API key>".'
          : 'Missing API key: send Authorization: Bearer <API key>.',
      );
    }
    const principal = await this.principals.resolve(secret);
    if (!principal) throw GatewayError.unauthorized('Invalid, revoked or expired API key.');
    (req as AuthenticatedRequest).principal = principal;
  }
}
