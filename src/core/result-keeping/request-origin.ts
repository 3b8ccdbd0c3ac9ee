import type { Request } from 'express';
import type { AnswerRewriter } from '../../platform/http/timed-express-adapter';
import { RESULT_PATH } from './result-links';

/** A DNS name or bracketed IPv6 literal, with an optional port: nothing that could leave a JSON string. */
const PLAIN_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `http(s)://host[:port]` of the request, from its Host header; undefined when the header is missing or not plain. */
export function requestOrigin(req: Pick<Request, 'protocol' | 'headers'>): string | undefined {
  const host = req.headers.host;
  if (!host || host.length > 261 || !PLAIN_HOST.test(host)) return undefined;
  return `${req.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

/**
 * Without `PUBLIC_BASE_URL`, result URLs are signed on a fallback origin (what callbacks, which have
 * no request, carry); an answer to a request carries them on the host the client called instead.
 * The signature covers the path only, so the same token is valid on either origin.
 */
export function resultUrlsOnRequestHost(fallbackOrigin: string): AnswerRewriter {
  const prefix = JSON.stringify(`${fallbackOrigin}${RESULT_PATH}`).slice(1, -1);
  return (req, json) => {
    if (!json.includes(prefix)) return json;
    const origin = requestOrigin(req);
    return origin ? json.split(prefix).join(`${origin}${RESULT_PATH}`) : json;
  };
}
