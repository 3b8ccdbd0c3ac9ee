import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { contextOf, RequestContext } from './request-context';

/** Reads the request's context (for `Ctx`; exported so that a decorator can check a handler takes it). */
export function requestContextParam(_data: unknown, context: ExecutionContext): RequestContext {
  return contextOf(context.switchToHttp().getRequest());
}

/** The request's context (request ID, upstream time, idempotency claim) as a handler parameter. */
export const Ctx = createParamDecorator(requestContextParam);

/** Whether the handler `key` of `target` takes `@Ctx()` (read from Nest's route-argument metadata). */
export function takesRequestContext(target: object, key: string | symbol): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<
    string,
    { factory?: unknown }
  >;
  return Object.values(args).some((arg) => arg.factory === requestContextParam);
}
