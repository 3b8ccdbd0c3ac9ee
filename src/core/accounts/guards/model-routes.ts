import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import type { Capability } from '../../models/model-catalogue';

/**
 * The routes that take a model, noted by their capability decorator when their class is defined,
 * so a model sent to another family's path can be pointed at its own. A route's family is the
 * first segment of its controller's path (each family serves under `/<family id>/`).
 */
interface ModelRoute {
  capability: Capability;
  controller: object;
  handler: unknown;
}

const routes: ModelRoute[] = [];

export function noteModelRoute(capability: Capability, prototype: object, handler: unknown): void {
  routes.push({ capability, controller: prototype.constructor, handler });
}

/** Each controller's family, read from its metadata once (the model guard asks on every request). */
const familyOfController = new WeakMap<object, string | undefined>();

/** The family whose path the controller serves, or undefined for a controller outside every family's path. */
export function routeFamily(controller: unknown): string | undefined {
  if (typeof controller !== 'function') return undefined;
  if (familyOfController.has(controller)) return familyOfController.get(controller);
  const path = firstPath(Reflect.getMetadata(PATH_METADATA, controller));
  const family = path.split('/').find((segment) => segment !== '') || undefined;
  familyOfController.set(controller, family);
  return family;
}

/** `POST /ax/api/v1/...`: the route of `family` that takes a model for `capability`, when there is one. */
export function routeFor(family: string, capability: Capability): string | undefined {
  const route = routes.find((r) => r.capability === capability && routeFamily(r.controller) === family);
  if (!route || typeof route.handler !== 'function') return undefined;
  const method = Reflect.getMetadata(METHOD_METADATA, route.handler) as RequestMethod | undefined;
  const path = [
    firstPath(Reflect.getMetadata(PATH_METADATA, route.controller)),
    firstPath(Reflect.getMetadata(PATH_METADATA, route.handler)),
  ]
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
  return `${RequestMethod[method ?? RequestMethod.POST]} /${path}`;
}

function firstPath(value: unknown): string {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : '';
  return typeof value === 'string' ? value : '';
}
