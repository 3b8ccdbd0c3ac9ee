import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { REQUIRED_ROLE } from '../../src/admin/requires-role.decorator';

export interface AdminRoute {
  /** `METHOD /path` with `:param`s, as declared. */
  route: string;
  method: string;
  path: string;
  /** The role the route (or its controller) declares; undefined when it declares none. */
  role: string | undefined;
}

const joined = (...parts: string[]) =>
  '/' +
  parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');

/**
 * Every route under /admin/ of every controller Nest registered, read from Nest's own module
 * container and route metadata, so a route added later is found without being listed anywhere.
 */
export function adminRoutes(app: INestApplication): AdminRoute[] {
  const routes: AdminRoute[] = [];
  const seen = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const base = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const own = [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[];
        for (const prefix of base)
          for (const suffix of own) {
            const path = joined(prefix, suffix);
            if (!path.startsWith('/admin/')) continue;
            const verb = RequestMethod[method];
            routes.push({
              route: `${verb} ${path}`,
              method: verb,
              path,
              role: (Reflect.getMetadata(REQUIRED_ROLE, handler) ?? Reflect.getMetadata(REQUIRED_ROLE, controller)) as
                string | undefined,
            });
          }
      }
    }
  }
  return routes;
}
