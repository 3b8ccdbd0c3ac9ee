import { AX_SIM_VENDOR } from './ax';
import { KL_SIM_VENDOR } from './kl';
import type { SimVendor } from './sim-vendor';
import { VD_SIM_VENDOR } from './vd';

/** Every vendor the built-in simulator plays: one line each. */
export const SIM_VENDORS: readonly SimVendor[] = [KL_SIM_VENDOR, AX_SIM_VENDOR, VD_SIM_VENDOR];
