import { AX_PATHS } from '../ax/ax.api';
import { KL_PATHS } from '../kl/kl.api';
import { VD_PATHS } from '../vd/vd.api';
import { vendorOf } from '../vendors';
import { checkBaseUrl } from './base-url';

describe('UpstreamVendor.pathPrefix', () => {
  // The doubling check is only as good as this table: every path a client calls must start with it.
  it.each([
    ['kl', Object.values(KL_PATHS)],
    ['ax', Object.values(AX_PATHS)],
    ['vd', Object.values(VD_PATHS)],
  ] as const)('is where every %s path starts', (family, paths) => {
    for (const path of paths) expect(path.startsWith(`${vendorOf(family).pathPrefix}/`)).toBe(true);
  });
});

describe('checkBaseUrl', () => {
  it('keeps a good base without trailing slashes', () => {
    expect(checkBaseUrl('https://api.vidu.com//', 'X', vendorOf('vd'))).toBe('https://api.vidu.com');
    expect(checkBaseUrl('https://relay.example/vidu/', 'X', vendorOf('vd'))).toBe('https://relay.example/vidu');
  });

  it('refuses a base that ends in the segments the client adds, suggesting the fix', () => {
    expect(() => checkBaseUrl('https://api.vidu.com/ent/v2/', 'X', vendorOf('vd'))).toThrow(
      'X must not end in /ent/v2: the vd client adds /ent/v2 itself (use https://api.vidu.com).',
    );
  });
});
