import { ResultLinks, derivedResultSecret } from './result-links';

describe('ResultLinks', () => {
  let now = 1_800_000_000;
  const links = (secrets: string[], ttlSeconds = 86400) =>
    new ResultLinks({ origin: 'https://gw.example.com', secrets, ttlSeconds, nowSeconds: () => now });
  const tokenOf = (url: string) => url.slice('https://gw.example.com/results/'.length);

  it('signs an opaque URL on the gateway origin that verifies to the task and slot until it expires', () => {
    const signer = links(['k'.repeat(32)], 100);
    const url = signer.url('task_abc', 'v0w');
    expect(url).toMatch(/^https:\/\/gw\.example\.com\/results\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(url).not.toContain('task_abc');
    const verdict = signer.verify(tokenOf(url));
    expect(verdict).toEqual({ ok: true, ref: { taskId: 'task_abc', slot: 'v0w', expiresAt: now + 100 } });
    now += 101;
    expect(signer.verify(tokenOf(url))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a changed payload or signature', () => {
    const signer = links(['k'.repeat(32)]);
    const [payload, signature] = tokenOf(signer.url('task_abc', 'v0')).split('.');
    const other = Buffer.from(`task_xyz~v0~${now + 999}`).toString('base64url');
    expect(signer.verify(`${other}.${signature}`)).toEqual({ ok: false, reason: 'signature' });
    expect(signer.verify(`${payload}.${signature.slice(1)}`)).toEqual({ ok: false, reason: 'signature' });
    expect(signer.verify('no-dot')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts the previous key during a rotation, and signs with the current one', () => {
    const old = links(['old-key-0123456789']);
    const issued = tokenOf(old.url('task_abc', 'a0'));
    const rotated = links(['new-key-0123456789', 'old-key-0123456789']);
    expect(rotated.verify(issued).ok).toBe(true);
    expect(old.verify(tokenOf(rotated.url('task_abc', 'a0'))).ok).toBe(false);
    expect(links(['new-key-0123456789']).verify(issued).ok).toBe(false);
  });

  it('rounds the expiry up to a short step, so a query and its callback carry the same URL', () => {
    const signer = links(['k'.repeat(32)], 86400);
    const first = signer.url('task_abc', 'v0');
    now += 1;
    expect(signer.url('task_abc', 'v0')).toBe(first);
  });

  it('seals a preview’s upstream URL in its token, readable only with a current or previous key, until it expires', () => {
    const upstream = 'http://10.0.0.5:4001/assets/sample.mp4?session_id=up-session-42&expires=1';
    const signer = links(['old-key-0123456789'], 100);
    const url = signer.previewUrl(upstream);
    expect(url).toMatch(/^https:\/\/gw\.example\.com\/results\/p\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(url).not.toMatch(/10\.0\.0\.5|up-session-42/);
    expect(signer.verify(tokenOf(url))).toEqual({ ok: true, preview: { upstreamUrl: upstream, expiresAt: now + 100 } });
    expect(links(['new-key-0123456789', 'old-key-0123456789']).verify(tokenOf(url)).ok).toBe(true);
    expect(links(['new-key-0123456789']).verify(tokenOf(url))).toEqual({ ok: false, reason: 'signature' });
    const token = tokenOf(url);
    const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect(signer.verify(flipped)).toEqual({ ok: false, reason: 'signature' });
    now += 101;
    expect(signer.verify(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('names a renewable file by source and key, signed apart from task files, until it expires', () => {
    const signer = links(['key-0123456789abcdef'], 100);
    const url = signer.renewableUrl('klp', '1.20.829826007624355840');
    expect(url).toMatch(/^https:\/\/gw\.example\.com\/results\/r\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signer.verify(tokenOf(url))).toEqual({
      ok: true,
      renewable: { source: 'klp', key: '1.20.829826007624355840', expiresAt: now + 100 },
    });
    // Without its prefix the same payload and signature are no task file's token, nor is a task token renewable.
    expect(signer.verify(tokenOf(url).slice(2))).toEqual({ ok: false, reason: 'signature' });
    expect(signer.verify(`r.${tokenOf(signer.url('task_abc', 'v0'))}`)).toEqual({ ok: false, reason: 'signature' });
    now += 101;
    expect(signer.verify(tokenOf(url))).toEqual({ ok: false, reason: 'expired' });
  });

  it('derives a stable key from the admin token when none is configured', () => {
    expect(derivedResultSecret('admin-token-0123456789')).toBe(derivedResultSecret('admin-token-0123456789'));
    expect(derivedResultSecret('admin-token-0123456789')).not.toContain('admin-token');
  });
});
