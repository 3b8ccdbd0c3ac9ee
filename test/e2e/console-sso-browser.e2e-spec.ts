import { join } from 'path';
import type { BrowserContext, Page } from 'playwright-core';
import { SCREENSHOT_DIR, launchChromium } from '../support/browser';
import { reservePort } from '../support/ports';
import { TestIssuer, startTestIssuer } from '../support/oidc-issuer';
import { SimulatedGateway, startSimulatedGateway } from '../support/simulated-gateway';

jest.setTimeout(120_000);

/** Signing in to the console through the team's issuer, in Chromium: the button, the issuer's form, back signed in. */
describe('operator console: single sign-on, in Chromium', () => {
  let gw: SimulatedGateway;
  let issuer: TestIssuer;
  let browser: BrowserContext;
  let page: Page;
  let base: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const { port, release } = await reservePort();
    base = `http://127.0.0.1:${port}`;
    issuer = await startTestIssuer({
      clientId: 'gateway-console',
      clientSecret: 'console-secret-0123456789',
      redirectUri: `${base}/console/sso/callback`,
      people: {
        alice: { name: 'Alice Ops', gateway_role: 'admin' },
        eve: { name: 'Eve Nobody' },
      },
    });
    gw = await startSimulatedGateway({
      env: {
        PUBLIC_BASE_URL: base,
        OIDC_ISSUER_URL: issuer.url,
        OIDC_CLIENT_ID: 'gateway-console',
        OIDC_CLIENT_SECRET: 'console-secret-0123456789',
      },
    });
    await release();
    await gw.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('pageerror', (e) => problems.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    issuer?.stop();
  });

  /** The console's button, then the issuer's own login form. */
  async function signInAs(login: string): Promise<void> {
    await page.goto(`${base}/console`);
    await page.getByTestId('sso-sign-in').click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(new RegExp(`^${base}/console/`));
  }

  it('signs in with the issuer, works under that name, and signs out', async () => {
    await signInAs('alice');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('whoami').textContent()).toBe('Alice Ops · admin');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'sso-signed-in.png'), fullPage: true });

    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByLabel('Name', { exact: true }).fill('SSO Browser Studio');
    await page.getByLabel('Opening balance').fill('1000');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'SSO Browser Studio' }).waitFor();
    const trail = (await gw.admin.get('/admin/v1/audit?action=account.create').expect(200)).body.items;
    expect(trail[0]).toMatchObject({
      actor: { name: 'Alice Ops', role: 'admin' },
      after: { name: 'SSO Browser Studio' },
    });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('sso-sign-in').waitFor();
    await page.reload();
    await page.getByTestId('sso-sign-in').waitFor();
    expect(await page.evaluate('document.cookie')).not.toContain('gw_console_csrf');
    expect(problems).toEqual([]);
  });

  it('shows why a person without a gateway role was refused', async () => {
    await browser.clearCookies(); // the issuer's own session, so that its form asks who this is
    await signInAs('eve');
    expect(await page.getByTestId('signin-error').textContent()).toMatch(/no gateway role/);
    expect(page.url()).toBe(`${base}/console/`);
  });
});
