import { CanActivate, ExecutionContext, Injectable, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { GatewayError } from '../platform/errors';
import { BodyMayBeAbsent } from '../platform/http/request-body';
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
 * Marks a POST that takes no input: documented as an empty object (or no body at all), and refused
 * with anything in it. Runs after the route's credential and role checks, which come from the
 * controller's guards.
 */
export const TakesEmptyBody = (): MethodDecorator =>
  applyDecorators(
    ApiBody({
      required: false,
      schema: { type: 'object', example: {}, description: 'An empty object, or no body', additionalProperties: false },
    }),
    BodyMayBeAbsent(),
    UseGuards(EmptyBodyGuard),
  );
