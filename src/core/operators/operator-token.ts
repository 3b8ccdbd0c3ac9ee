import { randomSecret } from '../../platform/ids/ids';
import { hashApiKey, shownPrefix } from '../accounts/api-key-secret';

/** Operator tokens look like `vgo_<43 url-safe chars>`, hashed and shown by prefix as API keys are. */
export function newOperatorToken(): { token: string; hash: string; prefix: string } {
  const token = `vgo_${randomSecret(32)}`;
  return { token, hash: hashOperatorToken(token), prefix: shownPrefix(token) };
}

export const hashOperatorToken = hashApiKey;
