import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { routeGuards } from '../internals/nest-internals';
import { CredentialGuard } from './credential-guard';
import { OtherBodyReader, readRequestBody, tooLarge } from './json-body';
import { discardBody } from './unread-body';

/**
 * How much body a route takes: `media`, the large limit (`BODY_LIMIT_BYTES`), for the routes that
 * take Base64 media inline; `small` (`SMALL_BODY_LIMIT_BYTES`), every other route, the default;
 * `none`, a route whose body is never read (one sent is let arrive and dropped, whatever its length).
 */
export type BodySize = 'media' | 'small' | 'none';

interface BodyPolicy {
  size: BodySize;
  multipart?: OtherBodyReader;
  /** A request sent without a body reads as `{}` (no Content-Type needed). */
  absentIsEmpty?: boolean;
}

const BODY_POLICY = Symbol('gateway.bodyPolicy');

/** A route that takes Base64 media inline (and, with `multipart`, also reads `multipart/form-data` its own way). */
export const MediaBody = (options: { multipart?: OtherBodyReader } = {}): MethodDecorator =>
  SetMetadata(BODY_POLICY, { size: 'media', ...options } satisfies BodyPolicy);

/** A route whose body is never read nor parsed, whatever its type or length. */
export const NoBody = (): MethodDecorator => SetMetadata(BODY_POLICY, { size: 'none' } satisfies BodyPolicy);

/** A POST whose input is an empty object: sent without a body (a bare `curl -X POST`), it reads as `{}`. */
export const BodyMayBeAbsent = (): MethodDecorator =>
  SetMetadata(BODY_POLICY, { size: 'small', absentIsEmpty: true } satisfies BodyPolicy);

interface RoutePlan {
  credential: CredentialGuard | null;
  policy: BodyPolicy;
}

/**
 * The body step of every route (a global guard, so it runs first, once Nest has matched the
 * route): on a POST, PUT or PATCH, or any request that carries a body, it has the route's
 * credential guard check the caller, then reads
 * the body within the route's limit. A wrong credential is refused before a byte of the body is
 * read (the guard's own answer, unchanged), and a body is read only up to what its route takes.
 * Each route's plan (its credential guard, its body policy) is worked out at its first request.
 */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  private readonly plans = new WeakMap<object, RoutePlan>();
  private readonly limits: Record<Exclude<BodySize, 'none'>, number>;

  constructor(
    private readonly modules: ModuleRef,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.limits = { media: config.BODY_LIMIT_BYTES, small: config.SMALL_BODY_LIMIT_BYTES };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const method = req.method;
    const takesBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    if (!takesBody && !carriesBody(req)) return true;
    const { credential, policy } = this.planOf(context);
    // A refusal leaves the body unread: the error writer answers once the client has finished sending.
    if (credential) await credential.authenticateOnce(req);
    if (policy.size === 'none') {
      // Never read, whatever its type or length: let arrive and dropped, so the client reads the answer.
      await discardBody(req);
      return true;
    }
    if (!takesBody) {
      // A GET or DELETE reads no body: one sent anyway is let arrive and dropped unparsed, so the
      // client reads the answer rather than a reset; past the small limit, declared or counted as it
      // arrives (a chunked body declares none), it is refused as too large.
      const dropped = await discardBody(req);
      const declared = Number(req.headers['content-length'] ?? 0);
      if (Math.max(declared, dropped) > this.limits.small) throw tooLarge(req, this.limits.small);
      return true;
    }
    if (policy.absentIsEmpty && !carriesBody(req)) {
      req.body = {};
      return true;
    }
    const res = context.switchToHttp().getResponse<Response>();
    await readRequestBody(req, res, { limitBytes: this.limits[policy.size], multipart: policy.multipart });
    return true;
  }

  private planOf(context: ExecutionContext): RoutePlan {
    const handler = context.getHandler();
    let plan = this.plans.get(handler);
    if (!plan) {
      plan = {
        credential: this.credentialGuardOf(context.getClass(), handler),
        policy: (Reflect.getMetadata(BODY_POLICY, handler) as BodyPolicy | undefined) ?? { size: 'small' },
      };
      this.plans.set(handler, plan);
    }
    return plan;
  }

  /** The first credential guard the route lists (the controller's guards run before the handler's). */
  private credentialGuardOf(controller: Type, handler: object): CredentialGuard | null {
    for (const guard of routeGuards(controller, handler)) {
      if (guard instanceof CredentialGuard) return guard;
      if (typeof guard === 'function' && guard.prototype instanceof CredentialGuard)
        return this.modules.get(guard as Type<CredentialGuard>, { strict: false });
    }
    return null;
  }
}

/** Whether a request has a body at all (a non-zero Content-Length, or one sent chunked). */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
