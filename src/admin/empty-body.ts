import { CanActivate, ExecutionContext, Injectable, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { GatewayError } from '../platform/errors';
import { capEchoed, refuseUnusableBody } from '../platform/validation/validate-dto';

/** A POST that takes no input must be sent `{}`: any field in it is unknown (400 naming it), never ignored. */
@Injectable()
export class EmptyBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    refuseUnusableBody(body);
    for (const key of Object.keys(body)) {
      const param = capEchoed(key);
      throw GatewayError.invalid(`Unknown field '${param}': this route takes an empty object.`, param);
    }
    return true;
  }
}

/**
 * Marks a POST that takes no input: documented as an empty object, and refused with anything in it.
 * Runs after the route's credential and role checks, which come from the controller's guards.
 */
export const TakesEmptyBody = (): MethodDecorator =>
  applyDecorators(
    ApiBody({ schema: { type: 'object', example: {}, description: 'An empty object', additionalProperties: false } }),
    UseGuards(EmptyBodyGuard),
  );
