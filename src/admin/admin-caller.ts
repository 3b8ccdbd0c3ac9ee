import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Actor, ChangeOrigin } from '../core/audit/audit.types';
import { clientAddress } from '../platform/http/client-address';
import { contextOf } from '../platform/http/request-context';

/** Where `AdminGuard` leaves the caller it authenticated. */
const CALLER = Symbol('gateway.adminCaller');

export type AdminRequest = Request & { [CALLER]?: Actor };

export function setAdminCaller(req: Request, actor: Actor): void {
  (req as AdminRequest)[CALLER] = actor;
}

/** The caller `AdminGuard` authenticated on this request. */
export function adminCaller(req: Request): Actor {
  const actor = (req as AdminRequest)[CALLER];
  if (!actor) throw new Error('admin route without AdminGuard');
  return actor;
}

/**
 * The authenticated caller of an admin route with its request (ID, client address): the origin of
 * any change the route makes, and whose role decides what a read shows.
 */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): ChangeOrigin => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return {
    actor: adminCaller(req),
    requestId: contextOf(req).requestId,
    ip: clientAddress(req),
  };
});
