import type { UpstreamChannel } from '../upstream.types';

const JWT_PATTERN = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;
const MAX_MESSAGE_LENGTH = 500;

/**
 * Upstream messages are passed on to callers and logs; some upstreams echo the credential they were
 * given ("invalid key sk-..."), so the channel's secrets and any bearer JWT are masked first.
 */
export function redactCredentials(text: string, channel: UpstreamChannel): string {
  let safe = text.replace(JWT_PATTERN, '***');
  for (const secret of [channel.apiKey, channel.accessKey, channel.secretKey]) {
    if (secret && secret.length >= 4) safe = safe.split(secret).join('***');
  }
  return safe.length > MAX_MESSAGE_LENGTH ? `${safe.slice(0, MAX_MESSAGE_LENGTH)}...` : safe;
}
