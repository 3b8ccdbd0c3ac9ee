import * as jwt from 'jsonwebtoken';
import { sameSecret } from '../secret-compare';

export interface KlAuthKeys {
  apiKey: string;
  /** Without a key pair, only the API key is accepted. */
  accessKey?: string;
  secretKey?: string;
}

/**
 * kl accepts `Bearer <api key>` or `Bearer <HS256 JWT>` signed with the secret key, with
 * `iss` = access key and a mandatory `exp` (`nbf` enforced when present).
 * Returns why the header is refused, or undefined when it is accepted.
 */
export function klAuthRefusal(header: string | undefined, keys: KlAuthKeys): string | undefined {
  if (!header) return 'Authorization header is missing';
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) return 'Authorization header must be "Bearer <token>"';
  const token = match[1];
  if (sameSecret(token, keys.apiKey)) return undefined;
  if (!keys.accessKey || !keys.secretKey) return 'invalid API key or token';
  try {
    const claims = jwt.verify(token, keys.secretKey, { algorithms: ['HS256'], issuer: keys.accessKey });
    if (typeof claims !== 'object' || typeof claims.exp !== 'number') return 'token has no exp claim';
    return undefined;
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) return 'token expired';
    if (error instanceof jwt.NotBeforeError) return 'token not active yet';
    return 'invalid API key or token';
  }
}
