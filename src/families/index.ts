import { AX_FAMILY } from './ax/ax.family';
import type { FamilyDefinition } from './family-definition';
import { KL_FAMILY } from './kl/kl.family';
import { VD_FAMILY } from './vd/vd.family';

/** Every family the gateway serves: one line each. */
export const FAMILIES: readonly FamilyDefinition[] = [KL_FAMILY, AX_FAMILY, VD_FAMILY];
