/** Field names whose values never leave the gateway in an operator view of a request. */
const SECRET_FIELD = /secret|token|password|authorization|api_?key|access_?key/i;

/** Credentials by field name, and the gateway's own callback token wherever it appears, masked. */
export function redactRequest(value: unknown, callbackToken: string | null): unknown {
  if (typeof value === 'string')
    return callbackToken && value.includes(callbackToken) ? value.split(callbackToken).join('***') : value;
  if (Array.isArray(value)) return value.map((v) => redactRequest(v, callbackToken));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '***' : redactRequest(v, callbackToken)]),
    );
  return value;
}
