import { CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { GatewayError } from '../platform/errors';
import { capEchoed } from '../platform/validation/validate-dto';

/** A query parameter sent to an admin route that takes none: 400 naming it, never a filter silently ignored. */
@Injectable()
export class NoQueryGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const query = context.switchToHttp().getRequest<Request>().query;
    for (const name in query) {
      const param = capEchoed(name);
      throw GatewayError.invalid(`Unknown query parameter '${param}': this route takes none.`, param);
    }
    return true;
  }
}

/**
 * Marks an admin route, or every route of a controller, as taking no query parameters (documented
 * with the admin errors every route can answer). On a controller it goes above
 * `@UseGuards(AdminGuard)`, so a wrong token is still 401 first.
 */
export function TakesNoQuery(): MethodDecorator & ClassDecorator {
  return UseGuards(NoQueryGuard);
}
