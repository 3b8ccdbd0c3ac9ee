import { Webhook } from 'standardwebhooks';
import { accountFactory, callbackDeliveryFactory } from '../../../../test/factories';
import {
  FakeTransactionRunner,
  InMemoryAccountsRepository,
  InMemoryCallbackOutboxRepository,
} from '../../../../test/fakes';
import { CallbackReceiver, startCallbackReceiver } from '../../../../test/support/callback-receiver';
import { loadConfig } from '../../../platform/config/app-config';
import { ManualClock } from '../../../platform/time/clock';
import { CallbackDeliveryEntity } from '../entities/callback-delivery.entity';
import { CallbackDeliveryWorker } from './callback-delivery.worker';

const ACCOUNT = accountFactory.build({ id: 'acct_1' });
const BASE_MS = 1000;

function setup(
  receiver: CallbackReceiver,
  delivery: Partial<CallbackDeliveryEntity>,
  env: Record<string, string> = {},
) {
  const clock = new ManualClock();
  const outbox = new InMemoryCallbackOutboxRepository(
    callbackDeliveryFactory.build({
      id: 'msg_1',
      accountId: 'acct_1',
      url: receiver.url,
      body: '{"id":"task_1"}',
      ...delivery,
    }),
  );
  const config = loadConfig({
    CALLBACK_ALLOW_PRIVATE: 'true',
    CALLBACK_RETRY_BASE_MS: String(BASE_MS),
    CALLBACK_MAX_ATTEMPTS: '3',
    WORKERS_ENABLED: 'false',
    ...env,
  });
  const worker = new CallbackDeliveryWorker(
    outbox,
    new InMemoryAccountsRepository(ACCOUNT),
    new FakeTransactionRunner(),
    clock,
    config,
  );
  return { worker, outbox, clock };
}

describe('CallbackDeliveryWorker', () => {
  let receiver: CallbackReceiver;
  let answers: number[];
  beforeEach(async () => {
    answers = [];
    receiver = await startCallbackReceiver((n) => answers[n - 1] ?? 204);
  });
  afterEach(() => receiver.close());

  it('POSTs the body signed per Standard Webhooks with the account’s secret, then marks it delivered', async () => {
    const f = setup(receiver, {});
    await expect(f.worker.runCycle()).resolves.toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [{ headers, body }] = receiver.received;
    expect(body).toBe('{"id":"task_1"}');
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(f.clock.nowMs() / 1000)));
    const signed = new Webhook(ACCOUNT.webhookSecret).sign('msg_1', new Date(f.clock.nowMs()), body);
    expect(headers['webhook-signature']).toBe(signed);
    expect(headers['content-type']).toBe('application/json');
    expect(f.outbox.row('msg_1')).toMatchObject({
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
      lastError: null,
    });
  });

  it('retries a refused delivery with doubling back-off, then gives up after the last attempt', async () => {
    answers = [500, 503, 500];
    const f = setup(receiver, {});
    await f.worker.runCycle();
    let row = f.outbox.row('msg_1');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 500' });
    expect(row.nextAttemptAt! - f.clock.nowMs()).toBeGreaterThanOrEqual(0.8 * BASE_MS);
    expect(row.nextAttemptAt! - f.clock.nowMs()).toBeLessThanOrEqual(1.2 * BASE_MS);

    await expect(f.worker.runCycle()).resolves.toBe(0);
    f.clock.advance(1.2 * BASE_MS);
    await f.worker.runCycle();
    row = f.outbox.row('msg_1');
    expect(row).toMatchObject({ status: 'pending', attempts: 2, lastError: 'HTTP 503' });
    expect(row.nextAttemptAt! - f.clock.nowMs()).toBeGreaterThanOrEqual(1.6 * BASE_MS);
    expect(row.nextAttemptAt! - f.clock.nowMs()).toBeLessThanOrEqual(2.4 * BASE_MS);

    f.clock.advance(2.4 * BASE_MS);
    await f.worker.runCycle();
    expect(f.outbox.row('msg_1')).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    f.clock.advance(3600_000);
    await expect(f.worker.runCycle()).resolves.toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it('sends nothing for an account that is gone, and says why', async () => {
    const f = setup(receiver, { accountId: 'acct_gone' });
    await f.worker.runCycle();
    expect(receiver.received).toHaveLength(0);
    expect(f.outbox.row('msg_1')).toMatchObject({ status: 'pending', attempts: 1, lastError: 'account not found' });
  });

  it('refuses a private destination unless the operator allows them', async () => {
    const f = setup(receiver, {}, { CALLBACK_ALLOW_PRIVATE: 'false' });
    await f.worker.runCycle();
    expect(receiver.received).toHaveLength(0);
    expect(f.outbox.row('msg_1').lastError).toMatch(/not allowed|private|127\.0\.0\.1/i);
  });

  it('two workers at once send a delivery once: the attempt is claimed first', async () => {
    const f = setup(receiver, {});
    const other = new CallbackDeliveryWorker(
      f.outbox,
      new InMemoryAccountsRepository(ACCOUNT),
      new FakeTransactionRunner(),
      f.clock,
      loadConfig({ CALLBACK_ALLOW_PRIVATE: 'true', WORKERS_ENABLED: 'false' }),
    );
    await Promise.all([f.worker.runCycle(), other.runCycle()]);
    expect(receiver.received).toHaveLength(1);
    expect(f.outbox.row('msg_1')).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('claims a batch in one go, reads each account once and records every outcome in one transaction', async () => {
    answers = [204, 500, 204];
    const clock = new ManualClock();
    const rows = ['msg_a', 'msg_b', 'msg_c'].map((id, i) =>
      callbackDeliveryFactory.build({
        id,
        accountId: 'acct_1',
        url: receiver.url,
        nextAttemptAt: clock.nowMs() - 10 + i,
      }),
    );
    const outbox = new InMemoryCallbackOutboxRepository(...rows);
    const accounts = new InMemoryAccountsRepository(ACCOUNT);
    const lookups = jest.spyOn(accounts, 'findByIds');
    const transactions = new FakeTransactionRunner();
    const config = loadConfig({ CALLBACK_ALLOW_PRIVATE: 'true', WORKERS_ENABLED: 'false' });
    const worker = new CallbackDeliveryWorker(outbox, accounts, transactions, clock, config);
    await expect(worker.runCycle()).resolves.toBe(3);
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(lookups).toHaveBeenCalledWith(['acct_1']);
    expect(transactions.runs).toBe(1);
    const statuses = ['msg_a', 'msg_b', 'msg_c'].map((id) => outbox.row(id).status).sort();
    expect(statuses).toEqual(['delivered', 'delivered', 'pending']);
    expect(receiver.received).toHaveLength(3);
  });

  it('logs a retry at the time it records for it', async () => {
    answers = [500];
    const f = setup(receiver, {});
    const warn = jest.spyOn((f.worker as unknown as { logger: { warn: (...args: unknown[]) => void } }).logger, 'warn');
    await f.worker.runCycle();
    const logged = warn.mock.calls[0][0] as { nextAttemptAt: string };
    expect(Date.parse(logged.nextAttemptAt)).toBe(f.outbox.row('msg_1').nextAttemptAt);
  });
});
