import { MetadataStorage, getMetadataStorage } from 'class-validator';
import { fastPathsOn } from '../config/fast-paths';

/**
 * The one file that relies on class-validator's internals (pinned in package.json; the spec beside
 * it fails when the installed version no longer behaves as relied on): `MetadataStorage`'s
 * `getTargetValidationMetadatas` and `groupByPropertyName` are what `validate` calls for every
 * (nested) object, and `addValidationMetadata` / `addConstraintMetadata` are how every rule is added.
 */

type ValidationMetadata = Parameters<MetadataStorage['addValidationMetadata']>[0];

const INSTALLED = Symbol.for('gateway.validationMetadataCache');

/** The rules that say what type a value must be; run before the others of their property. */
const TYPE_CHECKS = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject']);

/**
 * A property's type check comes before its other rules, whatever order the decorators were written
 * in: with `stopAtFirstError`, a wrong type is then reported as a wrong type (`seed must be an
 * integer number`), never as the range or length rule that happened to run first on it. A check
 * of each element (`each: true`) keeps its place. The order of the other rules is unchanged.
 */
export function typeChecksFirst(metadata: ValidationMetadata[]): ValidationMetadata[] {
  const isTypeCheck = (m: ValidationMetadata) => !m.each && m.name !== undefined && TYPE_CHECKS.has(m.name);
  return [...metadata.filter(isTypeCheck), ...metadata.filter((m) => !isTypeCheck(m))];
}

/**
 * Puts each class's rules in `typeChecksFirst`'s order (always: it decides which message a client
 * reads) and, while fast paths are on (`FAST_PATHS`), keeps them. class-validator looks up a
 * class's rules on every validation of every (nested) object: it filters the rules of the class
 * and walks every validated class for inherited ones, then groups them by property, each time. The
 * answer only changes when rules are added (when a decorated class is loaded), so it is kept per
 * class and dropped whenever a rule is added. Lookups with validation groups are not kept (the
 * gateway uses none). With fast paths off, every lookup and grouping is class-validator's own.
 *
 * Hand-written because: class-validator offers no cache of its own; gateway CPU per create
 * (docs/hand-written.md, "class-validator metadata cache").
 */
export function installValidationMetadataCache(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;
  // Per class, per schema (class-validator passes the parent's class for nested objects), per `always`/`strictGroups`.
  let byTarget = new Map<unknown, Map<unknown, ValidationMetadata[][]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  const forget = (): void => {
    byTarget = new Map();
    grouped = new WeakMap();
  };

  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if ((groups && groups.length > 0) || !fastPathsOn('validation-cache'))
      return typeChecksFirst(lookUp(target, schema, always, strictGroups, groups));
    let bySchema = byTarget.get(target);
    if (bySchema === undefined) {
      bySchema = new Map();
      byTarget.set(target, bySchema);
    }
    let entries = bySchema.get(schema);
    if (entries === undefined) {
      entries = [];
      bySchema.set(schema, entries);
    }
    const key = (always ? 1 : 0) + (strictGroups ? 2 : 0);
    return (entries[key] ??= typeChecksFirst(lookUp(target, schema, always, strictGroups, groups)));
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadata) => {
    if (!fastPathsOn('validation-cache')) return group(metadata);
    let result = grouped.get(metadata);
    if (result === undefined) {
      result = group(metadata);
      grouped.set(metadata, result);
    }
    return result;
  };

  const addValidation = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    forget();
    addValidation(metadata);
  };
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  storage.addConstraintMetadata = (metadata) => {
    forget();
    addConstraint(metadata);
  };
}
