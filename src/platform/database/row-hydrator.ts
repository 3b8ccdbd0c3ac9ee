import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata, ValueTransformer } from 'typeorm';
import type { HydratingDriver } from '../internals/typeorm-internals';

/** Column types TypeORM's SQLite driver converts itself before any transformer (see `prepareHydratedValue`). */
const DRIVER_CONVERTED = new Set<unknown>([
  Boolean,
  'boolean',
  'datetime',
  Date,
  'date',
  'time',
  'json',
  'simple-json',
  'simple-array',
  'simple-enum',
  Number,
]);

/**
 * The conversion of one column's value, as TypeORM's SQLite driver does it: the driver itself for
 * the types it converts, else the column's transformer (on null too), else none (the value as read).
 */
function conversionOf(column: ColumnMetadata, driver: HydratingDriver): ((value: unknown) => unknown) | null {
  if (DRIVER_CONVERTED.has(column.type)) return (value) => driver.prepareHydratedValue(value, column);
  const transformer = column.transformer as ValueTransformer | ValueTransformer[] | undefined;
  if (!transformer) return null;
  if (Array.isArray(transformer)) return (value) => transformer.reduceRight((v, t) => t.from(v), value);
  return (value) => transformer.from(value);
}

/**
 * A function that turns one SQLite row, read as an array in `columns` order, into an entity: the
 * same entity TypeORM's driver would hydrate column by column, without its generic per-value type
 * tests, and with one named store per property instead of a store under a computed key. The
 * function's text names only properties and column positions, taken from the entity metadata.
 *
 * Entities with embedded columns are not handled (null is returned, the caller hydrates generically).
 *
 * Hand-written because: a task row's hydration time (docs/hand-written.md, "row hydrator"). Off with
 * `FAST_PATHS=false` (TypeORM's query builder hydrates).
 */
export function compileSqliteHydrator<T>(
  metadata: EntityMetadata,
  columns: readonly ColumnMetadata[],
  driver: HydratingDriver,
): ((values: unknown[]) => T) | null {
  if (columns.some((column) => column.embeddedMetadata !== undefined)) return null;
  const conversions = columns.map((column) => conversionOf(column, driver));
  const lines = columns.map((column, i) => {
    const property = JSON.stringify(column.propertyName);
    return conversions[i] ? `e[${property}] = conversions[${i}](values[${i}]);` : `e[${property}] = values[${i}];`;
  });
  const factory = new Function(
    'create',
    'conversions',
    `return function hydrateRow(values) {\n  const e = create();\n  ${lines.join('\n  ')}\n  return e;\n};`,
  ) as (create: () => unknown, conversions: Array<((value: unknown) => unknown) | null>) => (values: unknown[]) => T;
  return factory(() => metadata.create(), conversions);
}
