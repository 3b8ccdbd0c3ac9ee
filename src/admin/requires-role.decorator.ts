import { SetMetadata } from '@nestjs/common';
import type { OperatorRole } from '../core/operators/operator-roles';

export const REQUIRED_ROLE = 'gateway:admin-required-role';

/**
 * The weakest operator role that may call an admin route (on the route, or on its controller for
 * all of its routes; the route's wins). `AdminGuard` refuses a route that declares none to all but
 * the owner.
 */
export const RequiresRole = (role: OperatorRole): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_ROLE, role);
