import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OperatorSessions, csrfMatches } from '../../core/operators/operator-sessions.service';
import { requestOrigin } from '../../core/result-keeping/request-origin';
import { AppConfig } from '../../platform/config/app-config';
import { GatewayError } from '../../platform/errors';
import { clientAddress } from '../../platform/http/client-address';
import { NoBody } from '../../platform/http/request-body';
import { contextOf } from '../../platform/http/request-context';
import {
  CSRF_HEADER,
  FLOW_COOKIE,
  SESSION_COOKIE,
  SSO_PATH,
  clearConsoleCookies,
  clearFlowCookie,
  cookieOf,
  setConsoleCookies,
  setFlowCookie,
} from './console-cookies';
import { OidcSignIn, SignInFlow } from './oidc-sign-in';
import { SignInRefused } from './person-from-claims';

/**
 * The console's sign-in through the team's OpenID Connect issuer. `login` sends the browser to the
 * issuer, `callback` turns its answer into a console session (cookies) and back to the console;
 * a refused sign-in returns to the console with the reason in `sso_error`.
 */
@ApiExcludeController()
@Controller(SSO_PATH.slice(1))
export class SsoController {
  constructor(
    private readonly sso: OidcSignIn,
    private readonly sessions: OperatorSessions,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** Whether the console offers single sign-on. */
  @Get('status')
  status(): { enabled: boolean } {
    return { enabled: this.sso.enabled };
  }

  @Get('login')
  async login(@Req() req: Request, @Res() res: Response): Promise<void> {
    const redirectUri = this.redirectUri(req);
    let started;
    try {
      started = await this.sso.begin(redirectUri);
    } catch {
      throw GatewayError.unavailable('The sign-in issuer cannot be reached; try again shortly.');
    }
    setFlowCookie(res, isHttps(redirectUri), Buffer.from(JSON.stringify(started.flow)).toString('base64url'));
    res.redirect(302, started.url);
  }

  @Get('callback')
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const redirectUri = this.redirectUri(req);
    const secure = isHttps(redirectUri);
    clearFlowCookie(res, secure);
    const flow = flowOf(cookieOf(req, FLOW_COOKIE));
    try {
      if (!flow) throw new SignInRefused('The sign-in expired or was started in another browser; sign in again.');
      const person = await this.sso.finish(redirectUri, req.originalUrl, flow);
      const ttlS = this.config.CONSOLE_SESSION_TTL_S;
      const session = await this.sessions.start(person, ttlS * 1000, {
        requestId: contextOf(req).requestId,
        ip: clientAddress(req),
      });
      setConsoleCookies(res, secure, { token: session.token, csrfToken: session.csrfToken, maxAgeS: ttlS });
      res.redirect(302, '/console/');
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      res.redirect(302, `/console/?sso_error=${encodeURIComponent(error.message)}`);
    }
  }

  /** Ends the console session (on every instance) and clears its cookies. */
  @Post('logout')
  @NoBody()
  @HttpCode(204)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const token = cookieOf(req, SESSION_COOKIE);
    const session = token ? await this.sessions.resolve(token) : null;
    if (session) {
      const sent = req.headers[CSRF_HEADER];
      if (!csrfMatches(session, typeof sent === 'string' ? sent : undefined))
        throw GatewayError.forbidden('Sign-out must carry the X-CSRF-Token the console was given.', CSRF_HEADER);
      await this.sessions.end(token!);
    }
    clearConsoleCookies(res, isHttps(this.redirectUri(req)));
  }

  private redirectUri(req: Request): string {
    if (!this.sso.enabled) throw GatewayError.notFound('Single sign-on');
    if (this.config.OIDC_REDIRECT_URL) return this.config.OIDC_REDIRECT_URL;
    const origin = this.config.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? requestOrigin(req);
    if (!origin) throw GatewayError.invalid('The request has no usable Host header.', 'Host');
    return `${origin}${SSO_PATH}/callback`;
  }
}

function isHttps(url: string): boolean {
  return url.startsWith('https:');
}

function flowOf(cookie: string | undefined): SignInFlow | null {
  if (!cookie) return null;
  try {
    const flow = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as Partial<SignInFlow>;
    return typeof flow.state === 'string' && typeof flow.nonce === 'string' && typeof flow.verifier === 'string'
      ? (flow as SignInFlow)
      : null;
  } catch {
    return null;
  }
}
