import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { UpstreamFamily } from '../upstream.types';
import type { UpstreamVendor } from '../vendor';
import { UPSTREAM_VENDORS } from '../vendors';
import { ChannelConfigError } from './channel-config-error';

export type ModelMap = Readonly<Record<string, string>>;
export type FamilyModelMaps = Readonly<Record<UpstreamFamily, ModelMap>>;

type Env = Record<string, string | undefined>;

/** The shipped default: public model name -> the vendor's documented name, per family. */
export const DEFAULT_MODEL_MAP_FILE = 'config/upstream-models.json';
/** Replaces the whole file (e.g. a copy the operator edits). */
export const MODEL_MAP_FILE_VARIABLE = 'UPSTREAM_MODEL_MAP_FILE';

/**
 * The model maps real channels start from: the file's section of each family with that family's
 * `UPSTREAM_<FAMILY>_MODEL_MAP` entries on top. Throws `ChannelConfigError` naming the file or
 * variable on anything unreadable.
 */
export function loadFamilyModelMaps(env: Env, vendors: readonly UpstreamVendor[] = UPSTREAM_VENDORS): FamilyModelMaps {
  const file = nonBlank(env[MODEL_MAP_FILE_VARIABLE]) ?? findDefaultFile();
  const families = vendors.map((vendor) => vendor.id);
  const fromFile = parseModelMapFile(readText(file), file, families);
  const maps: Record<UpstreamFamily, ModelMap> = {};
  for (const vendor of vendors) {
    const variable = vendor.env.modelMap;
    const text = nonBlank(env[variable]);
    const override = text === undefined ? {} : parseModelMap(parseJson(text, variable), variable);
    maps[vendor.id] = Object.freeze({ ...fromFile[vendor.id], ...override });
  }
  return Object.freeze(maps);
}

/** `{kl: {...}, ax: {...}, vd: {...}}`; keys starting with `$` (e.g. `$comment`) are notes and ignored. */
export function parseModelMapFile(
  text: string,
  where: string,
  families: readonly UpstreamFamily[] = UPSTREAM_VENDORS.map((vendor) => vendor.id),
): FamilyModelMaps {
  const parsed = parseJson(text, where);
  if (!isPlainObject(parsed)) throw new ChannelConfigError(`${where} must hold a JSON object of family -> model map.`);
  const unknown = Object.keys(parsed).find((key) => !key.startsWith('$') && !families.includes(key));
  if (unknown)
    throw new ChannelConfigError(`${where}: "${unknown}" is not an upstream family (expected ${families.join(', ')}).`);
  const maps: Record<UpstreamFamily, ModelMap> = {};
  for (const family of families) maps[family] = parseModelMap(parsed[family] ?? {}, `${where}: ${family}`);
  return maps;
}

/** One map: an object of public name -> non-empty upstream name. */
export function parseModelMap(value: unknown, name: string): ModelMap {
  if (!isPlainObject(value)) throw new ChannelConfigError(`${name} must be an object of public name -> upstream name.`);
  const entries = Object.entries(value).filter(([key]) => !key.startsWith('$'));
  const bad = entries.find(([, upstream]) => typeof upstream !== 'string' || upstream.trim() === '');
  if (bad) throw new ChannelConfigError(`${name}.${bad[0]} must be a non-empty string.`);
  return Object.freeze(Object.fromEntries(entries.map(([key, upstream]) => [key, (upstream as string).trim()])));
}

/** Every name mapped to itself: what the built-in simulator is given (it accepts public names). */
export function identityModelMap(names: Iterable<string>): ModelMap {
  return Object.freeze(Object.fromEntries([...names].map((name) => [name, name])));
}

/** config/upstream-models.json from the working directory, else from the package root (as for prices). */
function findDefaultFile(): string {
  if (existsSync(resolve(DEFAULT_MODEL_MAP_FILE))) return resolve(DEFAULT_MODEL_MAP_FILE);
  let dir = __dirname;
  while (dirname(dir) !== dir) {
    const candidate = join(dir, DEFAULT_MODEL_MAP_FILE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return DEFAULT_MODEL_MAP_FILE;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new ChannelConfigError(
      `The upstream model map file ${file} cannot be read (set ${MODEL_MAP_FILE_VARIABLE} to its path).`,
    );
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the input: say only where to look.
    throw new ChannelConfigError(`${where} is not valid JSON.`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
