import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The kinds (classes) of credential guard that accepted this request, kept on it so each checks
 * once: a class, not an instance, as every module that lists a guard gets an instance of its own.
 */
const ACCEPTED_BY = Symbol('gateway.credentialAcceptedBy');
type Checked = Request & { [ACCEPTED_BY]?: unknown[] };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerToken(req: Request): string | null {
  const match = BEARER.exec(req.headers.authorization ?? '');
  return match ? match[1] : null;
}

/**
 * A guard that decides who a request's credential belongs to. The body step (`RequestBodyGuard`)
 * asks a route's credential guard before it reads the body, so a caller it refuses never has a
 * body read, let alone parsed; the guard itself then finds its answer kept on the request and does
 * not ask again. Routes without a body are checked by the guard as usual.
 */
export abstract class CredentialGuard implements CanActivate {
  /**
   * The one place this kind of credential is checked: keeps who it belongs to on the request, or
   * throws the refusal (401, or 429 for a caller who failed too often).
   */
  protected abstract authenticate(req: Request): Promise<void>;

  /** Checks the credential unless this guard already accepted it on this request. */
  async authenticateOnce(req: Request): Promise<void> {
    const checked = req as Checked;
    if (checked[ACCEPTED_BY]?.includes(this.constructor)) return;
    await this.authenticate(req);
    (checked[ACCEPTED_BY] ??= []).push(this.constructor);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticateOnce(context.switchToHttp().getRequest<Request>());
    return true;
  }
}
