import { join } from 'path';
import type { BrowserContext, Page } from 'playwright-core';
import { SCREENSHOT_DIR, launchChromium } from '../support/browser';
import { reservePort } from '../support/ports';
import { SimulatedGateway, eventually, startSimulatedGateway } from '../support/simulated-gateway';

jest.setTimeout(120_000);

/**
 * The console as operators of different roles see it, in Chromium: who is signed in, what their
 * role cannot do hidden, the Audit page with its filters and CSV, and the entries of an account's
 * and a channel's page.
 */
describe('operator console: roles and the audit trail, in Chromium', () => {
  let gw: SimulatedGateway;
  let browser: BrowserContext;
  let page: Page;
  let base: string;
  const problems: string[] = [];
  const tokens: Record<string, string> = {};
  let accountId: string;
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

  const signIn = async (token: string) => {
    await page.goto(`${base}/console`);
    await page.evaluate('sessionStorage.clear()');
    await page.reload();
    await page.getByLabel('Admin token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  };

  beforeAll(async () => {
    const { port, release } = await reservePort();
    base = `http://127.0.0.1:${port}`;
    gw = await startSimulatedGateway({ env: { PUBLIC_BASE_URL: base } });
    await release();
    await gw.app.listen(port, '127.0.0.1');
    for (const [name, role] of [
      ['Ada', 'admin'],
      ['Vic', 'viewer'],
      ['Otto', 'operator'],
    ])
      tokens[role] = (await gw.admin.post('/admin/v1/operators', { name, role }).expect(201)).body.token;
    accountId = (
      await gw.admin.as(tokens.admin).post('/admin/v1/accounts', { name: 'Audited Studio', balance: 500 }).expect(201)
    ).body.id;
    browser = await launchChromium();
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 40[13]/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('a viewer sees who they are, and no control their role cannot use', async () => {
    await signIn(tokens.viewer);
    expect(await page.getByTestId('whoami').textContent()).toBe('Vic · viewer');

    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByRole('link', { name: 'Audited Studio' }).click();
    await page.getByRole('heading', { name: 'Audited Studio' }).waitFor();
    for (const control of ['Apply', 'Save grants', 'Create key', 'Disable account', 'Save limits'])
      expect(await page.getByRole('button', { name: control }).count()).toBe(0);
    // The account's own audit trail: its creation, by Ada.
    const entry = page.getByTestId('audit-entries').locator('[data-audit-id]').first();
    await entry.waitFor();
    expect(await entry.textContent()).toMatch(/Ada \(admin\).*account\.create.*account/);
    await shot('audit-account-viewer');

    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Prices', exact: true }).click();
    await page.getByTestId('price-version').waitFor();
    expect(await page.getByRole('button', { name: 'Save prices' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.locator('[data-channel-id]').first().waitFor();
    expect(await page.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Check credential/ }).count()).toBe(0);
  });

  it('the Audit page filters by action and downloads the matching entries as CSV', async () => {
    await gw.admin.as(tokens.admin).post(`/admin/v1/accounts/${accountId}/balance`, { delta: 250, reason: 'promo' });
    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit' }).waitFor();
    await page.locator('[data-audit-id]').first().waitFor();
    await page.getByLabel('Action').selectOption('balance.adjust');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(async () => {
      const rows = await page.locator('[data-audit-id]').allTextContents();
      return (
        rows.length === 1 &&
        /balance\.adjust.*balance: 0\.5 credits → 0\.75 credits.*delta: 0\.25 credits/.test(rows[0])
      );
    });
    await shot('audit-page');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('audit.csv');
  });

  it('an operator turns a channel off; the channel page shows that change, and no weight form', async () => {
    await signIn(tokens.operator);
    expect(await page.getByTestId('whoami').textContent()).toBe('Otto · operator');
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    const row = page.locator('[data-channel-id]').first();
    const channel = (await row.getAttribute('data-channel-id'))!;
    await row.getByRole('button', { name: 'Disable' }).click();
    await eventually(
      async () =>
        (await gw.admin.get('/admin/v1/channels')).body.data.find((c: { id: string }) => c.id === channel)?.enabled ===
        false,
    );
    await row.getByRole('link', { name: channel }).click();
    await page.getByRole('heading', { name: channel }).waitFor();
    const entry = page.locator('[data-audit-id]').first();
    await entry.waitFor();
    expect(await entry.textContent()).toMatch(/Otto \(operator\).*channel\.update.*enabled: true → false/);
    expect(await page.getByRole('button', { name: 'Save weight and priority' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Enable' }).click();
    await eventually(async () => (await page.locator('[data-audit-id]').count()) === 2);
    await shot('audit-channel-operator');
  });

  it('logged no script errors', () => {
    expect(problems).toEqual([]);
  });
});
