import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'crypto';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { randomSecret } from '../../platform/ids/ids';
import { Clock } from '../../platform/time/clock';
import { hashApiKey } from '../accounts/api-key-secret';
import { AuditTrail } from '../audit/audit.service';
import type { Actor, ChangeOrigin } from '../audit/audit.types';
import { OperatorSessionEntity } from './operator-session.entity';
import { OperatorSessionsRepository } from './operator-sessions.repository';

/** What the browser is given at sign-in: the session token (its cookie) and the CSRF token the console echoes. */
export interface StartedSession {
  token: string;
  csrfToken: string;
  expiresAt: number;
}

/** A live session: who, and the CSRF token its changes must carry. */
export interface LiveSession {
  actor: Actor;
  csrfToken: string;
}

/**
 * Console sign-ins through single sign-on. A session is a random token whose hash is stored with
 * the person and role their issuer named; it lasts a fixed time and ends at sign-out. Every
 * instance reads the same table, so a sign-in or sign-out holds on all of them at once. The sign-in
 * itself is on the audit trail, under the person's name.
 */
@Injectable()
export class OperatorSessions {
  constructor(
    private readonly sessions: OperatorSessionsRepository,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async start(person: Actor, ttlMs: number, request: Omit<ChangeOrigin, 'actor'>): Promise<StartedSession> {
    const now = this.clock.nowMs();
    const token = `vgs_${randomSecret(32)}`;
    const session = Object.assign(new OperatorSessionEntity(), {
      tokenHash: hashApiKey(token),
      operatorId: person.id,
      operatorName: person.name,
      role: person.role,
      csrfToken: randomSecret(24),
      createdAt: now,
      expiresAt: now + ttlMs,
    });
    await this.transactions.run(async (tx) => {
      await this.sessions.deleteExpired(tx, now);
      await this.sessions.insert(tx, session);
      await this.audit.record(
        tx,
        { ...request, actor: person },
        {
          action: 'operator.sign_in',
          target: { type: 'operator', id: person.id },
          before: null,
          after: {
            name: person.name,
            role: person.role,
            via: 'sso',
            expires_at: new Date(session.expiresAt).toISOString(),
          },
        },
      );
    });
    return { token, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
  }

  /** The session a cookie token names, or null when it is unknown or expired. */
  async resolve(token: string): Promise<LiveSession | null> {
    const found = await this.sessions.findByHash(hashApiKey(token));
    if (!found || found.expiresAt <= this.clock.nowMs()) return null;
    return { actor: { id: found.operatorId, name: found.operatorName, role: found.role }, csrfToken: found.csrfToken };
  }

  /** Sign-out: the token is refused from now on, everywhere. */
  end(token: string): Promise<void> {
    return this.sessions.delete(hashApiKey(token));
  }
}

/** Whether a CSRF token a request carries is the session's, compared in constant time. */
export function csrfMatches(session: LiveSession, sent: string | undefined): boolean {
  if (!sent) return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}
