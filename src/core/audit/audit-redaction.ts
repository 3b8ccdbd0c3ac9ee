/** Field names whose values never enter the audit trail, at any depth (`token_prefix` is not one). */
const SECRET_FIELD = /secret|password|hash|credential|authorization|api_?key|^key$|token$/i;

/** A snapshot with every secret-named field's value replaced by `***`. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '***' : redactSecrets(v)]),
    );
  return value;
}
