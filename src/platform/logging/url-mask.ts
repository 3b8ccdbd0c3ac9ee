/**
 * URLs as logs and traces may show them. A URL can carry a credential in two places: a query value
 * (`?key=…`, a presigned store's signature) and a path segment (a signed result URL's token, a
 * task's upstream callback token). Both are replaced by `[redacted]`; the rest of the URL stays, so
 * a line still says which route was called.
 */

/** Query parameters whose value is a credential (compared without case). */
export const SECRET_QUERY_PARAMS: readonly string[] = [
  'key',
  'api_key',
  'token',
  'access_token',
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
];

/** A query value ends at the next parameter, the fragment, or where the URL ends inside a text (a quote, a space). */
const VALUE = `[^&#\\s"'\\\\]+`;
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_QUERY_PARAMS.join('|')})=)${VALUE}`, 'gi');

export const REDACTED = '[redacted]';

/** Lower-cased path prefixes whose next segment is a credential (Express matches routes without case). */
const secretPaths: string[] = [];
/** The same prefixes with their segment, anywhere in a text. */
let secretPathsInText: RegExp | undefined;

/**
 * Declares that the segment after `prefix` (e.g. `/results/`) is a credential. The module that
 * serves such a route declares it, so the route and its masking cannot drift apart.
 */
export function registerSecretPath(prefix: string): void {
  const lower = prefix.toLowerCase();
  if (secretPaths.includes(lower)) return;
  secretPaths.push(lower);
  const alternatives = secretPaths.map((path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  secretPathsInText = new RegExp(`(${alternatives})[^/?#\\s"'\\\\]+`, 'gi');
}

/** `url` (a path with its query, or an absolute URL) with credential query values and path segments masked. */
export function maskUrl(url: string): string {
  const masked = url.includes('?') ? url.replace(SECRET_QUERY, `$1${REDACTED}`) : url;
  return secretPaths.length === 0 ? masked : maskSecretSegment(masked);
}

/**
 * Every URL credential inside a longer text (an SQL statement whose values are written into it, a
 * message): credential query values, and a registered path's segment wherever the path appears.
 */
export function maskUrlsInText(text: string): string {
  const masked = text.replace(SECRET_QUERY, `$1${REDACTED}`);
  return secretPathsInText ? masked.replace(secretPathsInText, `$1${REDACTED}`) : masked;
}

function maskSecretSegment(url: string): string {
  const pathStart = url.startsWith('/') ? 0 : absolutePathStart(url);
  if (pathStart < 0) return url;
  for (const prefix of secretPaths) {
    if (!startsWithIgnoringCase(url, prefix, pathStart)) continue;
    const from = pathStart + prefix.length;
    const rest = url.slice(from).search(/[/?#]/);
    const to = rest < 0 ? url.length : from + rest;
    if (to > from) return `${url.slice(0, from)}${REDACTED}${url.slice(to)}`;
    break;
  }
  return maskSpelledOtherwise(url, pathStart);
}

/**
 * A secret path spelled another way (`//results/…`, `/results//…`, `/./results/…`, `/%72esults/…`)
 * is no route, but its segment is the same credential: such a path is told in its plain spelling,
 * masked. Only a path holding `//`, `/.` or `%` is respelled, so an ordinary line costs one scan.
 */
function maskSpelledOtherwise(url: string, pathStart: number): string {
  const end = url.slice(pathStart).search(/[?#]/);
  const pathEnd = end < 0 ? url.length : pathStart + end;
  const path = url.slice(pathStart, pathEnd);
  if (!/\/\/|\/\.|%/.test(path)) return url;
  const plain = plainPath(path);
  if (plain === path) return url;
  const masked = maskSecretSegment(plain);
  return masked === plain ? url : `${url.slice(0, pathStart)}${masked}${url.slice(pathEnd)}`;
}

/** `path` with unreserved characters decoded, repeated slashes made one and dot segments resolved. */
function plainPath(path: string): string {
  const decoded = path.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : escape;
  });
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}${decoded.endsWith('/') && segments.length > 0 ? '/' : ''}`;
}

/** Whether `text` has the lower-case `prefix` at `at`, in any case; no string is made (it runs for every access line). */
function startsWithIgnoringCase(text: string, prefix: string, at: number): boolean {
  if (text.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const code = text.charCodeAt(at + i);
    if ((code >= 65 && code <= 90 ? code + 32 : code) !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

/** Where the path of `scheme://authority/path` starts; -1 when it is not such a URL or has no path. */
function absolutePathStart(url: string): number {
  const scheme = url.indexOf('://');
  return scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
}
