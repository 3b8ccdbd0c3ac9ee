/**
 * Media URLs that families pass on to their upstreams must name public hosts: the upstream fetches
 * them, so a loopback, private, link-local or metadata address would have it reach into a network
 * the caller should not reach. A host that is an IP literal must be public unicast by the same
 * verdict the gateway's own fetches apply (`isPublicAddress`); a name is refused when it always
 * means this machine or a metadata service. The operator's `MEDIA_FETCH_ALLOW_PRIVATE` lifts the
 * rule (tests and local demos), as it does for the images the gateway fetches itself.
 */
import { Body, Inject, Injectable, PipeTransform, mixin } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { GatewayError } from '../../platform/errors';
import { isPublicHost } from '../../platform/net/public-address';
import { checkMediaUrl } from './media-probe';

export interface MediaUrlPolicy {
  /** Hosts that are not public are taken too (tests and local demos only). */
  readonly allowPrivateHosts: boolean;
}

/** The rule without the operator's exception: what pure rule functions apply unless told otherwise. */
export const PUBLIC_MEDIA_URLS: MediaUrlPolicy = Object.freeze({ allowPrivateHosts: false });

export function mediaUrlPolicy(config: Pick<AppConfig, 'MEDIA_FETCH_ALLOW_PRIVATE'>): MediaUrlPolicy {
  return { allowPrivateHosts: config.MEDIA_FETCH_ALLOW_PRIVATE };
}

/** Refuses (400 naming `param`) a URL whose host is not public, unless the policy allows it. */
export function checkPublicHost(url: URL, param: string, policy: MediaUrlPolicy): void {
  if (policy.allowPrivateHosts || isPublicHost(url)) return;
  throw GatewayError.invalid(
    `${param} points to a loopback, private, link-local, metadata or otherwise non-public address; give a public http(s) URL.`,
    param,
  );
}

/**
 * A media URL the upstream will fetch: http(s), an allowed extension where the path has one
 * (`checkMediaUrl`), and a public host unless the policy allows others. Returns the parsed URL.
 */
export function checkPublicMediaUrl(
  value: string,
  extensions: readonly string[],
  param: string,
  what: string,
  policy: MediaUrlPolicy,
): URL {
  const url = checkMediaUrl(value, extensions, param, what);
  checkPublicHost(url, param, policy);
  return url;
}

/**
 * The request body, checked by a family's create rules with the operator's media-URL policy. A
 * pipe, as `RulesBody`'s are, so the rules still run after the guards and before the handler.
 */
export function MediaRulesBody<T>(rules: (body: unknown, urls: MediaUrlPolicy) => T): ParameterDecorator {
  @Injectable()
  class MediaRulesPipe implements PipeTransform<unknown, T> {
    private readonly urls: MediaUrlPolicy;

    constructor(@Inject(AppConfig) config: AppConfig) {
      this.urls = mediaUrlPolicy(config);
    }

    transform(body: unknown): T {
      return rules(body, this.urls);
    }
  }
  return Body(mixin(MediaRulesPipe));
}
