import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';

/** The console's session cookie (HttpOnly), the CSRF token the console reads and echoes, and the sign-in flow's. */
export const SESSION_COOKIE = 'gw_console';
export const CSRF_COOKIE = 'gw_console_csrf';
export const FLOW_COOKIE = 'gw_sso_flow';
export const CSRF_HEADER = 'x-csrf-token';
export const SSO_PATH = '/console/sso';

export function cookieOf(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[name] : undefined;
}

/**
 * Session cookies are SameSite=Strict (never sent by another site's page) and Secure when the
 * console is reached over HTTPS; the flow cookie is Lax, as the issuer's redirect back is a
 * navigation from its site, and lives only as long as a sign-in may take.
 */
export function setConsoleCookies(
  res: Response,
  secure: boolean,
  session: { token: string; csrfToken: string; maxAgeS: number },
): void {
  res.append('Set-Cookie', [
    serialize(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/',
      maxAge: session.maxAgeS,
    }),
    serialize(CSRF_COOKIE, session.csrfToken, { sameSite: 'strict', secure, path: '/', maxAge: session.maxAgeS }),
  ]);
}

export function clearConsoleCookies(res: Response, secure: boolean): void {
  res.append('Set-Cookie', [
    serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: 0 }),
    serialize(CSRF_COOKIE, '', { sameSite: 'strict', secure, path: '/', maxAge: 0 }),
  ]);
}

export function setFlowCookie(res: Response, secure: boolean, value: string): void {
  res.append(
    'Set-Cookie',
    serialize(FLOW_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure, path: SSO_PATH, maxAge: 600 }),
  );
}

export function clearFlowCookie(res: Response, secure: boolean): void {
  res.append(
    'Set-Cookie',
    serialize(FLOW_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure, path: SSO_PATH, maxAge: 0 }),
  );
}
