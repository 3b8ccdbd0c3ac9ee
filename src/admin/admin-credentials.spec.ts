import type { Request } from 'express';
import type { OperatorDirectory } from '../core/operators/operator-directory';
import type { OperatorSessions } from '../core/operators/operator-sessions.service';
import { AdminCredentials, BOOTSTRAP_OWNER } from './admin-credentials';

describe('AdminCredentials', () => {
  const dana = { id: 'op_1', name: 'Dana', role: 'viewer' as const };
  const asked: string[] = [];
  const directory = {
    resolve: async (token: string) => {
      asked.push(token);
      return token === 'vgo_dana' ? dana : null;
    },
  } as unknown as OperatorDirectory;
  const sessionsAsked: string[] = [];
  const sessions = {
    resolve: async (token: string) => {
      sessionsAsked.push(token);
      return token === 'vgs_dana' ? { actor: dana, csrfToken: 'c' } : null;
    },
  } as unknown as OperatorSessions;
  const credentials = new AdminCredentials('bootstrap-token-0123456789', directory, sessions);
  const withCookie = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as Request;

  it('ADMIN_TOKEN is the bootstrap owner, without a lookup', async () => {
    expect(await credentials.resolve('bootstrap-token-0123456789')).toBe(BOOTSTRAP_OWNER);
    expect(BOOTSTRAP_OWNER.role).toBe('owner');
    expect(asked).toEqual([]);
  });

  it('any other token is an operator’s, or no one’s (whatever its length)', async () => {
    expect(await credentials.resolve('vgo_dana')).toBe(dana);
    expect(await credentials.resolve('x')).toBeNull();
    expect(await credentials.resolve('bootstrap-token-0123456789-and-more')).toBeNull();
    expect(asked).toEqual(['vgo_dana', 'x', 'bootstrap-token-0123456789-and-more']);
  });

  it('a console session is read from its cookie only, among other cookies', async () => {
    expect(await credentials.consoleSession(withCookie('a=1; gw_console=vgs_dana; b=2'))).toEqual({
      actor: dana,
      csrfToken: 'c',
    });
    expect(await credentials.consoleSession(withCookie('gw_console=vgs_other'))).toBeNull();
    expect(await credentials.consoleSession(withCookie('gw_console_csrf=vgs_dana'))).toBeNull();
    expect(await credentials.consoleSession(withCookie())).toBeNull();
    expect(sessionsAsked).toEqual(['vgs_dana', 'vgs_other']);
  });
});
