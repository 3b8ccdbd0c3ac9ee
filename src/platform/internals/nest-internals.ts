import type { Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';

/**
 * The one file that relies on Nest's internals (@nestjs/common and @nestjs/core pinned in
 * package.json; the spec beside it fails when the installed version no longer behaves as relied
 * on): `@UseGuards` keeps a route's guards as metadata under `GUARDS_METADATA`, on the controller
 * class and on the handler function, and Nest runs the controller's before the handler's.
 */

/**
 * The guards a route lists, as `@UseGuards` was given them (classes or instances): the controller's,
 * then the handler's, the order in which Nest runs them. Global guards are not included.
 */
export function routeGuards(controller: Type, handler: object): readonly unknown[] {
  return [
    ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? []),
    ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
  ];
}
