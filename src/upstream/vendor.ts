import type { Provider, Type } from '@nestjs/common';
import type { SmokePlan } from './smoke/smoke-plans';
import type { UpstreamTaskClient } from './upstream.types';

/**
 * Everything the gateway needs to know of one upstream vendor, in the vendor's folder
 * (`src/upstream/<id>/index.ts`). The channel loader, the clients facade, the Nest module and the
 * smoke check all read these from one list (`vendors.ts`); none of them names a vendor.
 */
export interface UpstreamVendor {
  /** The protocol's short name: `channel.family`, and the family that speaks it. */
  readonly id: string;
  /** The Nest-injectable client that speaks the protocol. */
  readonly client: Type<UpstreamTaskClient>;
  /** Other providers the client injects (e.g. a token signer). */
  readonly providers?: readonly Provider[];
  /** The path segments the client puts in front of every path: a base URL must not end in them. */
  readonly pathPrefix: string;
  /** Its `UPSTREAM_<ID>_*` variables and its JSON channel fields. */
  readonly env: VendorEnvNames;
  /** The cheapest real task, for `npm run smoke:upstream`. */
  readonly smokePlan: SmokePlan;
  /**
   * Native error codes meaning the channel's own account has no balance left: a create may go to
   * another channel, and this one takes no new task for a cool-down.
   */
  readonly outOfBalanceCodes?: readonly (string | number)[];
}

export interface VendorEnvNames {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Set when the vendor also accepts an access/secret key pair. */
  readonly accessKey?: string;
  readonly secretKey?: string;
  /** JSON entries laid over the model-map file's section for this vendor. */
  readonly modelMap: string;
}

/** The variable names every vendor follows: `UPSTREAM_<ID>_BASE_URL`, `..._API_KEY`, `..._MODEL_MAP`. */
export function vendorEnvNames(id: string, options: { keyPair?: boolean } = {}): VendorEnvNames {
  const prefix = `UPSTREAM_${id.toUpperCase()}`;
  return {
    baseUrl: `${prefix}_BASE_URL`,
    apiKey: `${prefix}_API_KEY`,
    ...(options.keyPair ? { accessKey: `${prefix}_ACCESS_KEY`, secretKey: `${prefix}_SECRET_KEY` } : {}),
    modelMap: `${prefix}_MODEL_MAP`,
  };
}
