import { AX_VENDOR } from './ax';
import { KL_VENDOR } from './kl';
import type { UpstreamVendor } from './vendor';
import { VD_VENDOR } from './vd';

/** Every upstream vendor the gateway speaks to: one line each. */
export const UPSTREAM_VENDORS: readonly UpstreamVendor[] = [KL_VENDOR, AX_VENDOR, VD_VENDOR];

/** The vendors' ids, in list order. */
export const UPSTREAM_FAMILIES: readonly string[] = UPSTREAM_VENDORS.map((vendor) => vendor.id);

/** The vendor of `id` in `vendors`; throws on an unknown id. */
export function vendorOf(id: string, vendors: readonly UpstreamVendor[] = UPSTREAM_VENDORS): UpstreamVendor {
  const vendor = vendors.find((candidate) => candidate.id === id);
  if (!vendor) throw new Error(`No upstream vendor '${id}' is registered.`);
  return vendor;
}
