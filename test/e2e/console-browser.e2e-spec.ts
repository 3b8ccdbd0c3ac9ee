import { readFileSync } from 'fs';
import { join } from 'path';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { ADMIN_TOKEN } from '../support/gateway-harness';
import { SCREENSHOT_DIR, launchChromium } from '../support/browser';
import { reservePort } from '../support/ports';
import { SimulatedGateway, eventually, startSimulatedGateway } from '../support/simulated-gateway';

jest.setTimeout(120_000);

/**
 * The operator console in a real browser (Debian's Chromium through playwright-core): sign-in,
 * accounts and keys, a task followed live to its video, revocation, usage and its CSV, prices.
 * Each page's screenshot is written to test/artifacts/console/.
 */
describe('operator console in Chromium', () => {
  let gw: SimulatedGateway;
  let browser: BrowserContext;
  let page: Page;
  let base: string;
  const problems: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const state: { accountId?: string; key?: string; keyPrefix?: string; taskId?: string } = {};

  beforeAll(async () => {
    const { port, release } = await reservePort();
    base = `http://127.0.0.1:${port}`;
    gw = await startSimulatedGateway({ taskMs: 1500, env: { PUBLIC_BASE_URL: base } });
    await release();
    await gw.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 401/.test(m.text()))
        problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('serves the console with a strict CSP and shows nothing but the sign-in before sign-in', async () => {
    const res = await gw.http().get('/console').expect(200);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/\sstyle=/);
    await gw
      .http()
      .get('/console/vendor/preact-htm.js')
      .expect(200)
      .expect('content-type', /javascript/);
    await gw.http().get('/console/nope.js').expect(404);
    // Only the console's routes carry the console's policy.
    expect((await gw.http().get('/healthz')).headers['content-security-policy']).toBeUndefined();

    await page.goto(`${base}/console`);
    await page.getByLabel('Admin token').waitFor();
    expect(await page.locator('nav').count()).toBe(0);
    await shot('sign-in');
  });

  it('a wrong token shows an error; the right one signs in, kept in sessionStorage only', async () => {
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').textContent()).toContain('not accepted');

    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText('Tasks in flight').waitFor();
    expect(page.url()).not.toContain(ADMIN_TOKEN);
    expect(await browser.cookies()).toEqual([]);
    expect(await page.evaluate('JSON.stringify(localStorage)')).toBe('{}');
    expect(await page.evaluate("sessionStorage.getItem('gateway.adminToken')")).toBe(ADMIN_TOKEN);
  });

  it('creates an account, grants a model, and issues a key whose secret is shown once', async () => {
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Browser Studio');
    await page.getByLabel('Opening balance (credits)').fill('100000');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Browser Studio' }).waitFor();
    state.accountId = page.url().split('/').pop();
    expect(state.accountId).toMatch(/^acct_/);

    await page.getByLabel('Grant vdq3', { exact: true }).check();
    await page.getByRole('button', { name: 'Save grants' }).click();
    await eventually(
      async () => (await gw.admin.get(`/admin/v1/accounts/${state.accountId}`)).body.models.length === 1,
    );

    await page.getByLabel('Key name').fill('browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('issued-secret');
    await secret.waitFor();
    state.key = (await secret.textContent())!.trim();
    expect(state.key.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await shot('account-key-issued');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.locator('[data-key-id]').first().waitFor();
    expect(await page.content()).not.toContain(state.key);
  });

  it('follows a task created through the API to "succeeded" without reloading, then plays its video', async () => {
    const created = await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set('Authorization', `Bearer ${state.key}`)
      .send({ model: 'vdq3', subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }], prompt: '@cat' })
      .expect(200);
    state.taskId = created.body.task_id as string;

    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.evaluate('window.stayed = true');
    const row = page.locator(`tr[data-task-id="${state.taskId}"]`);
    await row.waitFor();
    await row.getByText('succeeded').waitFor({ timeout: 30_000 });
    expect(await page.evaluate('window.stayed')).toBe(true);
    await shot('tasks');

    await eventually(async () => {
      const detail = await gw.admin.get(`/admin/v1/tasks/${state.taskId}`).expect(200);
      return detail.body.result_files.some((f: { status: string }) => f.status === 'stored');
    }, 20_000);
    await row.getByRole('link', { name: state.taskId }).click();
    await page.getByTestId('detail-status').getByText('succeeded').waitFor();
    // A function, not text: polling a text predicate needs eval, which the console's CSP refuses.
    await page.waitForFunction(videoCanPlay, undefined, { timeout: 30_000 });
    await page.getByText('Timeline').waitFor();
    await shot('task-detail');
  });

  it('revokes the key in the console, and the API answers 401 to it', async () => {
    await page.goto(`${base}/console#/accounts/${state.accountId}`);
    await page.getByRole('button', { name: /^Revoke key / }).click();
    await page.getByTestId('confirm').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('button', { name: /^Revoke key / }).waitFor({ state: 'detached' });
    await gw.http().get('/gateway/v1/me').set('Authorization', `Bearer ${state.key}`).expect(401);
  });

  it('charts the task in the usage page and downloads the CSV', async () => {
    const task = await gw.app.get(DataSource).getRepository(TaskEntity).findOneByOrFail({ id: state.taskId! });
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    const today = new Date().toISOString().slice(0, 10);
    await page.locator(`[data-testid="usage-chart"] rect[data-model="vdq3"][data-day="${today}"]`).waitFor();
    await shot('usage');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('day,model,tasks,amount,operations');
    expect(csv).toContain(`${today},vdq3,1,${task.finalCharge}`);
  });

  it('shows the prices and saves a change as a new version', async () => {
    await page.getByRole('link', { name: 'Prices', exact: true }).click();
    const version = page.getByTestId('price-version');
    await version.waitFor();
    const before = Number(await version.textContent());
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByText(`Saved as version ${before + 1}.`).waitFor();
    await shot('prices');
  });

  it('shows the figures of the day in the overview', async () => {
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await page.getByText('100%').waitFor();
    await shot('overview');
  });

  it('is readable at 390 px wide, and nothing failed in the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.locator(`tr[data-task-id="${state.taskId}"]`).waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('tasks-390');
    expect(problems).toEqual([]);
  });
});

/**
 * Runs in the page (the tests are type-checked without the DOM library, hence the narrow type).
 * Self-contained: Playwright sends its source text to the page.
 */
function videoCanPlay(): boolean {
  const doc = (globalThis as unknown as { document: { querySelector(s: string): { readyState: number } | null } })
    .document;
  // HAVE_CURRENT_DATA (2) or more: a frame is decoded.
  return (doc.querySelector('video[data-testid="result-video"]')?.readyState ?? 0) >= 2;
}
