import { DynamicModule, Global, Inject, Injectable, Module } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'crypto';
import type { Actor } from '../core/audit/audit.types';
import type { Request } from 'express';
import { OperatorDirectory } from '../core/operators/operator-directory';
import { LiveSession, OperatorSessions } from '../core/operators/operator-sessions.service';
import { OperatorsModule } from '../core/operators/operators.module';
import { ADMIN_TOKEN } from './admin-token';
import { SESSION_COOKIE, cookieOf } from './sso/console-cookies';

/** Who holds `ADMIN_TOKEN`: the bootstrap owner, never stored, never disabled. */
export const BOOTSTRAP_OWNER: Actor = { id: 'bootstrap', name: 'bootstrap owner (ADMIN_TOKEN)', role: 'owner' };

/**
 * Whom an admin credential belongs to: the one answer to that question for every admin route.
 * `ADMIN_TOKEN` is compared in constant time (hashes make the lengths equal); any other token is an
 * operator's, found by its hash (cached; a disabled operator's token belongs to no one). Without a
 * token, the console's session cookie may name a person signed in through single sign-on.
 */
@Injectable()
export class AdminCredentials {
  private readonly bootstrap: Buffer;

  constructor(
    @Inject(ADMIN_TOKEN) adminToken: string,
    private readonly operators: OperatorDirectory,
    private readonly sessions: OperatorSessions,
  ) {
    this.bootstrap = digest(adminToken);
  }

  /** The caller `{id, name, role}` a bearer token belongs to, or null. */
  async resolve(token: string): Promise<Actor | null> {
    if (timingSafeEqual(digest(token), this.bootstrap)) return BOOTSTRAP_OWNER;
    return this.operators.resolve(token);
  }

  /** The console session a request's cookie names (single sign-on), or null. */
  async consoleSession(req: Request): Promise<LiveSession | null> {
    const token = cookieOf(req, SESSION_COOKIE);
    return token ? this.sessions.resolve(token) : null;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Global, so that every module guarding routes with `AdminGuard` asks the same one. */
@Global()
@Module({})
export class AdminCredentialsModule {
  static forRoot(adminToken: string): DynamicModule {
    return {
      module: AdminCredentialsModule,
      imports: [OperatorsModule],
      providers: [{ provide: ADMIN_TOKEN, useValue: adminToken }, AdminCredentials],
      exports: [AdminCredentials],
    };
  }
}
