import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GatewayError } from '../../../platform/errors';
import { PrincipalService } from '../principal.service';
import { AuthenticatedRequest } from './authenticated-request';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Who: `Authorization: Bearer <API key>` -> account. Anything else is 401 `invalid_api_key`. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly principals: PrincipalService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) throw GatewayError.unauthorized('Missing API key: send Authorization: Bearer <API key>.');
    const principal = await this.principals.resolve(match[1]);
    if (!principal) throw GatewayError.unauthorized('Invalid, revoked or expired API key.');
    req.principal = principal;
    return true;
  }
}
