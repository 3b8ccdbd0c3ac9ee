/** Small readers for untyped JSON bodies. */

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function stringField(body: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = body?.[key];
  return typeof value === 'string' ? value : undefined;
}

export function nonEmptyString(body: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = stringField(body, key);
  return value && value.trim() !== '' ? value : undefined;
}

export function arrayField(body: Record<string, unknown> | undefined, key: string): unknown[] | undefined {
  const value = body?.[key];
  return Array.isArray(value) ? value : undefined;
}

export function booleanField(body: Record<string, unknown> | undefined, key: string): boolean | undefined {
  const value = body?.[key];
  return typeof value === 'boolean' ? value : undefined;
}

export function numberField(body: Record<string, unknown> | undefined, key: string): number | undefined {
  const value = body?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
