import { startBanner } from './start-banner';

describe('startBanner', () => {
  const url = 'http://localhost:3000';
  const simulated = ['kl', 'ax', 'vd'];

  it('first start: URL, console, the generated admin token once and its file, the simulator, the demo key as API_KEY', () => {
    const lines = startBanner({
      url,
      cwd: '/srv/gw',
      admin: { token: 'the-admin-token-value-0123', origin: 'created', file: '/srv/gw/data/admin-token' },
      simulated,
      channels: [],
      demo: { accountId: 'acct_1', key: 'vgw_demo_secret' },
    });
    expect(lines).toEqual([
      'Gateway listening on http://localhost:3000 (OpenAPI: http://localhost:3000/docs)',
      'Console: http://localhost:3000/console (sign in with the admin token)',
      'Admin token (generated, shown once): the-admin-token-value-0123 - kept in data/admin-token (mode 0600, reused at every start; ADMIN_TOKEN overrides it)',
      'Upstream: built-in simulator for kl, ax, vd',
      'Demo API key (account acct_1, every model enabled; shown only now; npm run demo and the README use API_KEY): export API_KEY=vgw_demo_secret',
    ]);
  });

  it('later starts: the file reused, the demo account and how to get a new key', () => {
    const lines = startBanner({
      url,
      cwd: '/srv/gw',
      admin: { token: 'x'.repeat(32), origin: 'reused', file: '/var/lib/gw/admin-token' },
      simulated,
      channels: [],
      demo: { accountId: 'acct_1', key: null },
    });
    expect(lines[2]).toBe(
      'Admin token: kept in /var/lib/gw/admin-token (mode 0600, reused at every start; ADMIN_TOKEN overrides it): export ADMIN=$(cat /var/lib/gw/admin-token)',
    );
    expect(lines[4]).toBe(
      'Demo account: acct_1 (its key was shown at its first start; npm run demo -- --new-key creates a new demo account with its own key)',
    );
  });

  it('ADMIN_TOKEN set, real channels: names the variable and the upstream origins only, no demo line', () => {
    const lines = startBanner({
      url,
      admin: { token: 'from-env-secret-0123456', origin: 'env' },
      simulated: ['kl'],
      channels: [{ id: 'ax-default', family: 'ax', baseUrl: 'https://user:pw@ax.example.com/base?x=1' }],
      demo: null,
    });
    expect(lines).toEqual([
      'Gateway listening on http://localhost:3000 (OpenAPI: http://localhost:3000/docs)',
      'Console: http://localhost:3000/console (sign in with the admin token)',
      'Admin token: the value of ADMIN_TOKEN',
      'Upstream: ax -> https://ax.example.com (ax-default); built-in simulator for kl',
    ]);
    expect(lines.join('\n')).not.toMatch(/from-env-secret|pw@/);
  });
});
