import { Inject, Injectable } from '@nestjs/common';
import { BaseClient, Issuer, custom, generators } from 'openid-client';
import type { Actor } from '../../core/audit/audit.types';
import { isOperatorRole } from '../../core/operators/operator-roles';
import { AppConfig } from '../../platform/config/app-config';
import { RoleRules, SignInRefused, personFromClaims } from './person-from-claims';

/** What one sign-in must carry from its start to the issuer's redirect back (kept in the flow cookie). */
export interface SignInFlow {
  state: string;
  nonce: string;
  verifier: string;
}

/** The issuer's calls (discovery, token, userinfo) are given up after this long. */
const ISSUER_TIMEOUT_MS = 5000;

/**
 * Single sign-on for the console: OpenID Connect's authorization code flow with PKCE, through
 * `openid-client`. Off unless OIDC_ISSUER_URL and OIDC_CLIENT_ID are set. The issuer's metadata is
 * read at the first sign-in (and again after a failed read), so a gateway starts while its issuer is down.
 */
@Injectable()
export class OidcSignIn {
  private client: Promise<BaseClient> | null = null;
  private readonly rules: RoleRules;

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {
    this.rules = {
      claim: config.OIDC_ROLE_CLAIM,
      defaultRole: isOperatorRole(config.OIDC_DEFAULT_ROLE) ? config.OIDC_DEFAULT_ROLE : undefined,
    };
  }

  get enabled(): boolean {
    return Boolean(this.config.OIDC_ISSUER_URL && this.config.OIDC_CLIENT_ID);
  }

  /** Where to send the browser to sign in, and what its return must match. */
  async begin(redirectUri: string): Promise<{ url: string; flow: SignInFlow }> {
    const client = await this.clientOnce();
    const flow = { state: generators.state(), nonce: generators.nonce(), verifier: generators.codeVerifier() };
    const url = client.authorizationUrl({
      redirect_uri: redirectUri,
      scope: this.config.OIDC_SCOPES,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: generators.codeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    return { url, flow };
  }

  /**
   * The person the issuer's redirect back vouches for: the code is exchanged (with the PKCE
   * verifier; state and nonce checked), and the ID token's claims, with the userinfo endpoint's
   * where there is one, decide who they are and their role.
   */
  async finish(redirectUri: string, returnedUrl: string, flow: SignInFlow): Promise<Actor> {
    // An issuer that fails at any step is a refused sign-in: the browser returns to the console
    // saying why, not to an error object it cannot show.
    const client = await this.clientOnce().catch(() => {
      throw new SignInRefused('The sign-in issuer cannot be reached; sign in again shortly.');
    });
    const params = client.callbackParams(returnedUrl);
    if (params.error) throw new SignInRefused(`The issuer refused the sign-in: ${String(params.error).slice(0, 100)}.`);
    let tokens;
    try {
      tokens = await client.callback(redirectUri, params, {
        state: flow.state,
        nonce: flow.nonce,
        code_verifier: flow.verifier,
      });
    } catch (error) {
      throw new SignInRefused(`The sign-in could not be completed: ${(error as Error).message.slice(0, 200)}`);
    }
    let claims: Record<string, unknown> = { ...tokens.claims() };
    if (tokens.access_token && client.issuer.metadata.userinfo_endpoint) {
      const info = await client.userinfo(tokens).catch((error: Error) => {
        throw new SignInRefused(`The issuer's account details could not be read: ${error.message.slice(0, 200)}`);
      });
      if (info.sub === claims.sub) claims = { ...info, ...claims, ...pick(info, this.rules.claim) };
    }
    return personFromClaims(client.issuer.metadata.issuer, claims, this.rules);
  }

  private clientOnce(): Promise<BaseClient> {
    this.client ??= this.discover().catch((error: unknown) => {
      this.client = null;
      throw error;
    });
    return this.client;
  }

  private async discover(): Promise<BaseClient> {
    custom.setHttpOptionsDefaults({ timeout: ISSUER_TIMEOUT_MS });
    const issuer = await Issuer.discover(this.config.OIDC_ISSUER_URL!);
    const client = new issuer.Client({
      client_id: this.config.OIDC_CLIENT_ID!,
      client_secret: this.config.OIDC_CLIENT_SECRET,
      token_endpoint_auth_method: this.config.OIDC_CLIENT_SECRET ? 'client_secret_basic' : 'none',
      response_types: ['code'],
    });
    return client;
  }
}

function pick(source: Record<string, unknown>, key: string): Record<string, unknown> {
  return key in source ? { [key]: source[key] } : {};
}
