import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { ResultFileEntity } from '../../src/core/result-keeping/result-file.entity';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';
import { SCREENSHOT_DIR, launchChromium } from '../support/browser';
import { reservePort } from '../support/ports';
import { FAST_ENV, eventually } from '../support/simulated-gateway';
import { SwitchableUpstream, startSwitchableUpstream } from '../support/switchable-upstream';

jest.setTimeout(180_000);

/**
 * The console's controls in Chromium, each checked against the admin API it drives: channels
 * (enable, weight, priority, credential check), accounts (disable, limits, grants from the
 * catalogue, keys with expiry and models, revocation confirmed), amounts in credits, tasks
 * (names, failures in words, filters in the address, redelivery, keeping again) and prices as a form.
 */
describe('operator console controls in Chromium', () => {
  let sim: RunningSimulator;
  let front: SwitchableUpstream;
  let gw: Harness;
  let browser: BrowserContext;
  let page: Page;
  let base: string;
  let hooks: Server;
  let hookBase: string;
  const problems: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const state: { accountId?: string; key?: string } = {};
  const api = (path: string) => gw.admin.get(path).expect(200);

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 300 });
    const [vd] = simulatorChannels(sim, ['vd']);
    front = await startSwitchableUpstream(vd.baseUrl);
    hooks = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    hookBase = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    const { port, release } = await reservePort();
    base = `http://127.0.0.1:${port}`;
    gw = await startGateway({
      channels: [...simulatorChannels(sim), { ...vd, id: 'vd-fronted', baseUrl: front.baseUrl, weight: 0 }],
      env: { ...FAST_ENV, PUBLIC_BASE_URL: base },
    });
    await release();
    await gw.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => {
      if (
        m.type() === 'error' &&
        !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())
      )
        problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/console`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await front?.close();
    await sim?.close();
    await new Promise<void>((r) => hooks?.close(() => r()));
  });

  const channelOf = async (id: string) =>
    (await api('/admin/v1/channels')).body.data.find((c: { id: string }) => c.id === id);

  describe('channels', () => {
    it('shows each channel with its figures; disables and enables one', async () => {
      await page.getByRole('link', { name: 'Channels', exact: true }).click();
      const row = page.locator('tr[data-channel-id="vd-default"]');
      await row.waitFor();
      for (const header of [
        'Family',
        'Models',
        'Weight',
        'Priority',
        'Breaker',
        'In flight',
        'Errors (1 h)',
        'Last error',
      ])
        await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
      expect(await row.getByTestId('channel-priority').textContent()).toBe('0');
      await row.getByRole('button', { name: 'Disable vd-default' }).click();
      await eventually(async () => (await channelOf('vd-default')).enabled === false);
      await row.getByTestId('channel-enabled').getByText('no').waitFor();
      await row.getByRole('button', { name: 'Enable vd-default' }).click();
      await eventually(async () => (await channelOf('vd-default')).enabled === true);
    });

    it("checks a channel's credential and shows the vendor's answer: accepted, then refused", async () => {
      front.mode = 'proxy';
      await page.getByRole('button', { name: 'Check credential of vd-fronted' }).click();
      const result = page.getByTestId('check-result');
      await page.locator('[data-testid="check-result"][data-credential="accepted"]').waitFor();
      expect(await result.textContent()).toContain('vd-fronted: credential accepted');
      front.mode = 'revoked';
      await page.getByRole('button', { name: 'Check credential of vd-fronted' }).click();
      await page.locator('[data-testid="check-result"][data-credential="refused"]').waitFor();
      expect(await result.textContent()).toMatch(/credential REFUSED.*HTTP 401, code Unauthorized/);
      await shot('channels-check-refused');
      front.mode = 'proxy';
      expect(front.posts).toBe(0);
    });

    it('sets weight and priority on the channel page; a bad value says what to type', async () => {
      await page.getByRole('link', { name: 'vd-default' }).click();
      await page.getByRole('heading', { name: 'vd-default' }).waitFor();
      await page.getByLabel('Priority').fill('high');
      await page.getByRole('button', { name: 'Save weight and priority' }).click();
      await page.getByText('Priority must be a whole number from -1000 to 1000').waitFor();
      await page.getByLabel('Weight').fill('3');
      await page.getByLabel('Priority').fill('2');
      await page.getByRole('button', { name: 'Save weight and priority' }).click();
      await page.getByText('Weight and priority saved.').waitFor();
      expect(await channelOf('vd-default')).toMatchObject({ weight: 3, priority: 2 });
      await page.getByTestId('detail-priority').getByText('2').waitFor();
      await page.locator('[data-audit-id]').getByText('priority: 0 → 2').waitFor();
      await shot('channel-detail');
    });
  });

  describe('accounts and keys', () => {
    it('opens an account with a balance typed in credits, shown in credits', async () => {
      await page.getByRole('link', { name: 'Accounts', exact: true }).click();
      await page.getByLabel('Name', { exact: true }).fill('Credit Studio');
      await page.getByLabel('Opening balance (credits)').fill('12.5');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Credit Studio' }).waitFor();
      state.accountId = page.url().split('/').pop();
      expect((await api(`/admin/v1/accounts/${state.accountId}`)).body.balance).toBe(12_500);
      expect(await page.getByTestId('balance').textContent()).toBe('12.5 credits');
      await page.getByLabel('Amount (credits)').fill('2.75');
      await page.getByLabel('Reason').fill('promo');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByTestId('balance').getByText('15.25 credits').waitFor();
      expect((await api(`/admin/v1/accounts/${state.accountId}`)).body.balance).toBe(15_250);
    });

    it('grants models chosen from the catalogue, one with fewer capabilities', async () => {
      await page.getByLabel('Grant vdq3', { exact: true }).check();
      await page.getByLabel('Grant kl-v1-6', { exact: true }).check();
      await page.getByLabel('kl-v1-6 voices', { exact: true }).uncheck();
      await page.getByRole('button', { name: 'Save grants' }).click();
      await page.getByText('Grants saved.').waitFor();
      const models = (await api(`/admin/v1/accounts/${state.accountId}`)).body.models;
      const kl = models.find((g: { model: string }) => g.model === 'kl-v1-6');
      expect(models.map((g: { model: string }) => g.model).sort()).toEqual(['kl-v1-6', 'vdq3']);
      expect(kl.capabilities).not.toContain('voices');
      expect(kl.capabilities.length).toBeGreaterThan(0);
    });

    it('sets and clears the limits; a bad one says what to type', async () => {
      await page.getByLabel('Requests per minute').fill('0');
      await page.getByRole('button', { name: 'Save limits' }).click();
      await page.getByText('Requests per minute must be a whole number from 1 to 1,000,000').waitFor();
      await page.getByLabel('Requests per minute').fill('60');
      await page.getByLabel('Tasks at once').fill('2');
      await page.getByRole('button', { name: 'Save limits' }).click();
      await page.getByText('Limits saved.').waitFor();
      expect((await api(`/admin/v1/accounts/${state.accountId}`)).body).toMatchObject({
        rate_limit_rpm: 60,
        max_concurrent_tasks: 2,
      });
      await page.getByLabel('Tasks at once').fill('');
      await page.getByRole('button', { name: 'Save limits' }).click();
      await eventually(
        async () => (await api(`/admin/v1/accounts/${state.accountId}`)).body.max_concurrent_tasks === null,
      );
    });

    it('issues a named key with an expiry and one model, shown once with a copy button', async () => {
      await page.getByLabel('Key name').fill('ci');
      await page.getByLabel('Expires (optional)').fill('2031-01-02T03:04');
      await page.getByLabel('Only these models (optional)').selectOption(['vdq3']);
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = page.getByTestId('issued-secret');
      await secret.waitFor();
      state.key = (await secret.textContent())!.trim();
      await page.getByRole('button', { name: 'Copy' }).waitFor();
      await shot('account-key-issued-once');
      const [key] = (await api(`/admin/v1/accounts/${state.accountId}/keys`)).body.items;
      expect(key).toMatchObject({ name: 'ci', models: ['vdq3'], expires_at: expect.stringMatching(/^2031-01-0[12]/) });
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await secret.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(state.key);
    });

    it('revoking asks first: Cancel keeps the key, confirming revokes it', async () => {
      const [key] = (await api(`/admin/v1/accounts/${state.accountId}/keys`)).body.items;
      await page.getByRole('button', { name: `Revoke key ${key.prefix}` }).click();
      await page.getByTestId('confirm').getByText(`Revoke key ${key.prefix} (ci)?`).waitFor();
      await page.getByTestId('confirm').getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('confirm').waitFor({ state: 'detached' });
      await gw.http().get('/gateway/v1/me').set('Authorization', `Bearer ${state.key}`).expect(200);
      await page.getByRole('button', { name: `Revoke key ${key.prefix}` }).click();
      await page.getByTestId('confirm').getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText(`Key ${key.prefix} revoked.`).waitFor();
      await gw.http().get('/gateway/v1/me').set('Authorization', `Bearer ${state.key}`).expect(401);
    });

    it('disabling the account asks first; enabling it again does not', async () => {
      await page.getByRole('button', { name: 'Disable account' }).click();
      await page.getByTestId('confirm').getByRole('button', { name: 'Disable account' }).click();
      await page.getByTestId('account-state').getByText('disabled').waitFor();
      expect((await api(`/admin/v1/accounts/${state.accountId}`)).body.disabled).toBe(true);
      await page.getByRole('button', { name: 'Enable account' }).click();
      await page.getByTestId('account-state').getByText('enabled').waitFor();
      expect((await api(`/admin/v1/accounts/${state.accountId}`)).body.disabled).toBe(false);
      await shot('account-controls');
    });
  });

  describe('tasks', () => {
    const ids: { failed?: string; ok?: string; voice?: string } = {};
    let acctKey: string;

    beforeAll(async () => {
      const acct = await gw.admin.account({ models: ['vdq3', 'kl-v1'] });
      await gw.admin.patch(`/admin/v1/accounts/${acct.id}`, { name: 'Task Studio' }).expect(200);
      acctKey = acct.key;
      const vd = (extra: Record<string, unknown>) =>
        gw
          .http()
          .post('/vd/ent/v2/reference2video')
          .set('Authorization', `Bearer ${acctKey}`)
          .send({ model: 'vdq3', subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }], ...extra })
          .expect(200)
          .then((res) => res.body.task_id as string);
      ids.failed = await vd({ prompt: '@cat sim:fail' });
      ids.ok = await vd({ prompt: '@cat plays', callback_url: `${hookBase}/hook` });
      ids.voice = (
        await gw
          .http()
          .post('/kl/v1/general/custom-voices')
          .set('Authorization', `Bearer ${acctKey}`)
          .send({ voice_name: 'Narrator', voice_url: 'https://example.com/a/voice.mp3' })
          .expect(200)
      ).body.data.task_id;
      for (const id of Object.values(ids))
        await eventually(
          async () => ['succeeded', 'failed'].includes((await api(`/admin/v1/tasks/${id}`)).body.status),
          15_000,
        );
      await eventually(async () => {
        const files = (await api(`/admin/v1/tasks/${ids.ok}/results`)).body.files;
        return files.length > 0 && files.every((f: { status: string }) => f.status === 'stored');
      }, 15_000);
    });

    it('lists account names and failures in words; the filters live in the address', async () => {
      await page.getByRole('link', { name: 'Tasks', exact: true }).click();
      await page.getByLabel('Status').selectOption('failed');
      await page.getByRole('button', { name: 'Apply' }).click();
      await eventually(async () => page.url().includes('status=failed'));
      const row = page.locator(`tr[data-task-id="${ids.failed}"]`);
      // The page is drawn again for the new address: the rows seen before it (all tasks) go, then the failed ones come.
      await eventually(async () => (await page.locator(`tr[data-task-id="${ids.ok}"]`).count()) === 0, 10_000);
      await row.getByRole('link', { name: 'Task Studio' }).waitFor();
      expect(await row.getByTestId('task-failure').textContent()).toBe(
        'Creation policy violation (CreationPolicyViolation); the upstream sent no message.',
      );
      expect(await page.locator(`tr[data-task-id="${ids.ok}"]`).count()).toBe(0);
      await shot('tasks-failed-filter');
      // The address alone brings the same view back.
      const shared = page.url();
      await page.goto(`${base}/console#/overview`);
      await page.goto(shared);
      await row.waitFor();
      expect(await page.getByLabel('Status').inputValue()).toBe('failed');
    });

    it('an unknown filter value says so, instead of an empty table', async () => {
      await page.goto(`${base}/console#/tasks?model=vdq-9`);
      const refused = page.getByTestId('filter-error');
      await refused.waitFor();
      expect(await refused.textContent()).toContain('vdq-9');
      expect(await page.locator('tr[data-task-id]').count()).toBe(0);
      await shot('tasks-unknown-filter');
      await page.getByTestId('clear-filters').click();
      await page.locator('tr[data-task-id]').first().waitFor();
    });

    it('a failed task says why there is no video; a voice task shows its voice', async () => {
      await page.goto(`${base}/console#/tasks/${ids.failed}`);
      const none = page.getByTestId('result-none');
      await none.waitFor();
      expect(await none.textContent()).toBe(
        'No video: the task failed. Creation policy violation (CreationPolicyViolation); the upstream sent no message.',
      );
      expect(await page.getByTestId('detail-failure').textContent()).not.toContain(
        'CreationPolicyViolation: CreationPolicyViolation',
      );
      await page.getByText('Task Studio').first().waitFor();
      await shot('task-failed');
      await page.goto(`${base}/console#/tasks/${ids.voice}`);
      await page.getByTestId('result-voices').getByText('A voice, not a video').waitFor();
      expect(await page.locator('[data-testid="result-voices"] audio').count()).toBe(1);
    });

    it('cancels a task that has not ended, once the operator confirms', async () => {
      const id = await gw
        .http()
        .post('/vd/ent/v2/reference2video')
        .set('Authorization', `Bearer ${acctKey}`)
        .send({
          model: 'vdq3',
          subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
          prompt: '@cat waits',
        })
        .expect(200)
        .then((res) => res.body.task_id as string);
      const upstream = (await api(`/admin/v1/tasks/${id}`)).body.upstream_task_id as string;
      sim.forceState('vd', upstream, { state: 'queueing', creations: [] });
      await page.goto(`${base}/console#/tasks/${id}`);
      const actions = page.getByTestId('task-actions');
      await actions.getByRole('button', { name: 'Cancel the task' }).click();
      await actions.getByRole('button', { name: 'Keep it running' }).click();
      expect((await api(`/admin/v1/tasks/${id}`)).body.status).not.toBe('cancelled');
      await actions.getByRole('button', { name: 'Cancel the task' }).click();
      await actions.getByRole('button', { name: 'Yes, cancel this task' }).click();
      await page.getByTestId('task-action-outcome').getByText('Cancelled: the task is cancelled').waitFor();
      expect((await api(`/admin/v1/tasks/${id}`)).body.status).toBe('cancelled');
      await page.getByTestId('result-none').getByText('No video: the task was cancelled.').waitFor();
      await page.locator('[data-audit-id]').getByText('task.cancel').waitFor();
      expect(await actions.getByRole('button', { name: 'Cancel the task' }).isDisabled()).toBe(true);
    });

    it('sends the callback again and keeps the result again', async () => {
      await page.goto(`${base}/console#/tasks/${ids.ok}`);
      const actions = page.getByTestId('task-actions');
      await actions.waitFor();
      await actions.getByRole('button', { name: 'Send the callback again' }).click();
      await page
        .getByTestId('task-action-outcome')
        .getByText(/Callback queued again to .*\/hook/)
        .waitFor();
      await eventually(async () => (await api(`/admin/v1/tasks/${ids.ok}/callbacks`)).body.deliveries.length === 2);

      const refused = actions.getByRole('button', { name: 'Keep the result again' });
      await refused.click();
      await page
        .getByTestId('task-action-outcome')
        .getByText(/Result not kept again: .*kept already/)
        .waitFor();
      await gw.app
        .get(DataSource)
        .getRepository(ResultFileEntity)
        .update({ taskId: ids.ok }, { status: 'removed', storageKey: null, expiresAt: null });
      await refused.click();
      await page.getByTestId('task-action-outcome').getByText('Result files queued to be kept again').waitFor();
      await eventually(
        async () =>
          (await api(`/admin/v1/tasks/${ids.ok}/results`)).body.files.every(
            (f: { status: string }) => f.status === 'stored',
          ),
        15_000,
      );
      await page.locator('[data-audit-id]').getByText('task.results_keep').waitFor();
      await shot('task-actions');
    });

    it('shows every amount in credits, with the unit', async () => {
      const charge = (await api(`/admin/v1/tasks/${ids.ok}`)).body.final_charge as number;
      await page
        .getByText(`${(charge / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })} credits (settled)`)
        .waitFor();
      await page
        .locator('.timeline li')
        .filter({ hasText: 'hold' })
        .getByText(/credits?$/)
        .waitFor();
      await page.getByRole('link', { name: 'Overview', exact: true }).click();
      await page
        .locator('.card')
        .filter({ hasText: 'Spend today' })
        .getByText(/credits?$/)
        .waitFor();
      await page.getByRole('link', { name: 'Usage', exact: true }).click();
      await page
        .locator('table tbody tr')
        .first()
        .getByText(/credits?$/)
        .waitFor();
    });
  });

  describe('prices', () => {
    it("changes one model's price in the form, typed in credits", async () => {
      await page.getByRole('link', { name: 'Prices', exact: true }).click();
      const version = Number(await page.getByTestId('price-version').textContent());
      await page.locator('select[name="price-model"]').selectOption('vdq3');
      await page.getByLabel('Per output second, by resolution · 720p (credits)').fill('0.9');
      await page.getByRole('button', { name: 'Save prices' }).click();
      await page.getByText(`Saved as version ${version + 1}.`).waitFor();
      const table = (await api('/admin/v1/prices')).body;
      expect(table.version).toBe(version + 1);
      expect(table.models.vdq3.per_second['720p']).toBe(900);
      await shot('prices-form');
    });

    it('says what to fix: a bad amount in the form, a multiplier the rules refuse', async () => {
      await page.getByLabel('Per output second, by resolution · 720p (credits)').fill('-1');
      await page.getByRole('button', { name: 'Save prices' }).click();
      await page.getByText('vdq3 · Per output second, by resolution · 720p: type credits').waitFor();
      await page.getByLabel('Per output second, by resolution · 720p (credits)').fill('0.9');
      await page.getByLabel('Multiplier with audio (×)').fill('0.5');
      await page.getByRole('button', { name: 'Save prices' }).click();
      await page.getByText(/^vdq3 · Multiplier with audio: .*\(in basis points: 10000 = ×1\)$/).waitFor();
    });

    it('the raw JSON stays: a partial table lists the missing models; one without a version saves', async () => {
      const table = (await api('/admin/v1/prices')).body;
      await page.getByText('Raw JSON (the whole table, in units)').click();
      await page.getByLabel(/Price table \(JSON\)/).fill(JSON.stringify({ models: { vdq3: table.models.vdq3 } }));
      await page.getByRole('button', { name: 'Save JSON' }).click();
      await page.getByText(/The table must price every model; missing: .*vdq2/).waitFor();
      expect(await page.getByText('version must not be less than 1').count()).toBe(0);
      await page.getByLabel(/Price table \(JSON\)/).fill(JSON.stringify({ models: table.models }));
      await page.getByRole('button', { name: 'Save JSON' }).click();
      await page.getByText(`Saved as version ${table.version + 1}.`).waitFor();
    });
  });

  it('logged no script errors', () => {
    expect(problems).toEqual([]);
  });
});
