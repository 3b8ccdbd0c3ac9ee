import { join } from 'path';
import { QueryFailedError, Repository } from 'typeorm';
import { loadConfig } from '../../platform/config/app-config';
import { GatewayError } from '../../platform/errors';
import { ManualClock } from '../../platform/time/clock';
import { PriceVersionEntity } from './entities/price-version.entity';
import { FAMILY_REGISTRY } from '../../../test/support/families';
import { AxModelPrice } from '../../families/ax/ax.pricing';
import { PricingService } from './pricing.service';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AuditTrail } from '../audit/audit.service';
import { AuditChange, ChangeOrigin } from '../audit/audit.types';
import { axUsage } from '../../../test/factories/billing';

const SHIPPED = join(__dirname, '../../../config/prices.json');
const usage = axUsage();

/** The price_versions table as one or more instances share it; `beforeInsert` lets a rival instance act first. */
class SharedVersions {
  readonly rows = new Map<number, PriceVersionEntity>();
  beforeInsert: ((version: number) => void) | null = null;

  async find(): Promise<PriceVersionEntity[]> {
    const newest = Math.max(0, ...this.rows.keys());
    return newest ? [this.rows.get(newest)!] : [];
  }
  async findOneBy({ version }: { version: number }): Promise<PriceVersionEntity | null> {
    return this.rows.get(version) ?? null;
  }
  async save(row: PriceVersionEntity): Promise<PriceVersionEntity> {
    this.rows.set(row.version, structuredClone(row));
    return row;
  }
  async insert(row: PriceVersionEntity): Promise<void> {
    const hook = this.beforeInsert;
    this.beforeInsert = null;
    hook?.(row.version);
    if (this.rows.has(row.version))
      throw new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' }));
    this.rows.set(row.version, structuredClone(row));
  }
}

/** Every audit entry written, with the manager of the transaction it was written in. */
const recorded: Array<{ tx: unknown; change: AuditChange }> = [];
const ORIGIN: ChangeOrigin = { actor: { id: 'op_1', name: 'Dana', role: 'admin' }, requestId: 'req_1', ip: null };

async function instance(shared: SharedVersions, clock = new ManualClock()): Promise<PricingService> {
  // One transaction's manager: its price_versions repository is the shared table.
  const tx = { getRepository: () => shared };
  const transactions = { run: (work: (m: unknown) => Promise<unknown>) => work(tx) } as unknown as TransactionRunner;
  const audit = {
    record: async (m: unknown, _origin: ChangeOrigin, change: AuditChange) => void recorded.push({ tx: m, change }),
  } as unknown as AuditTrail;
  const service = new PricingService(
    shared as unknown as Repository<PriceVersionEntity>,
    loadConfig({ PRICES_FILE: SHIPPED }),
    clock,
    FAMILY_REGISTRY,
    transactions,
    audit,
  );
  await service.onModuleInit();
  return service;
}

function withPrice(table: object, perSecond720: number): Record<string, any> {
  const copy = structuredClone(table) as Record<string, any>;
  copy.models['wx2.7-r2v'].per_second['720P'] = perSecond720;
  return copy;
}

describe('PricingService versions', () => {
  it('seeds version history from the shipped file once', async () => {
    const shared = new SharedVersions();
    const first = await instance(shared);
    await instance(shared);
    expect([...shared.rows.keys()]).toEqual([1]);
    expect(first.table().version).toBe(1);
  });

  it('stores a replacement as the next version and prices later estimates with it', async () => {
    const shared = new SharedVersions();
    const pricing = await instance(shared);
    const v1 = pricing.estimate('wx2.7-r2v', usage);
    const stored = await pricing.replace(withPrice(pricing.table(), 3000), ORIGIN);
    expect(stored.version).toBe(2);
    expect(pricing.estimate('wx2.7-r2v', usage)).toMatchObject({ amount: 15000, priceVersion: 2 });
    // Its audit entry, with the version before and after, in the transaction that stored it.
    expect(recorded.at(-1)).toMatchObject({
      change: { action: 'price.update', before: { version: 1 }, after: { version: 2 } },
    });
    // A task held at version 1 is still finally priced at version 1.
    expect((await pricing.final('wx2.7-r2v', usage, { outputSeconds: 5 }, 1)).amount).toBe(v1.amount);
  });

  it('takes the next free number when another instance stored the same one first', async () => {
    const shared = new SharedVersions();
    const pricing = await instance(shared);
    shared.beforeInsert = (version) => void shared.rows.set(version, { version, table: {}, createdAt: 0 });
    const stored = await pricing.replace(withPrice(pricing.table(), 3000), ORIGIN);
    expect(stored.version).toBe(3);
    expect((shared.rows.get(3)!.table as any).models['wx2.7-r2v'].per_second['720P']).toBe(3000);
    expect(shared.rows.get(2)!.table).toEqual({}); // the rival's version is not overwritten
  });

  it('refuses an invalid table with a 400 naming the field and stores nothing', async () => {
    const shared = new SharedVersions();
    const pricing = await instance(shared);
    const bad = withPrice(pricing.table(), -1);
    await expect(pricing.replace(bad, ORIGIN)).rejects.toMatchObject({
      status: 400,
      param: 'models.wx2.7-r2v.per_second.720P',
    } satisfies Partial<GatewayError>);
    expect([...shared.rows.keys()]).toEqual([1]);
  });

  it('numbers a replacement as the next version whatever version it carries', async () => {
    const shared = new SharedVersions();
    const pricing = await instance(shared);
    const stored = await pricing.replace({ ...withPrice(pricing.table(), 3000), version: 500 }, ORIGIN);
    expect(stored.version).toBe(2);
    expect([...shared.rows.keys()]).toEqual([1, 2]);
  });

  it('refuses a table in another unit with a 400 on unit, and stores nothing', async () => {
    const shared = new SharedVersions();
    const pricing = await instance(shared);
    await expect(pricing.replace({ ...pricing.table(), unit: 'credit' }, ORIGIN)).rejects.toMatchObject({
      status: 400,
      param: 'unit',
    } satisfies Partial<GatewayError>);
    expect([...shared.rows.keys()]).toEqual([1]);
  });

  it('follows another instance’s replacement: at once for latest(), within seconds for estimates', async () => {
    const shared = new SharedVersions();
    const clock = new ManualClock();
    const mine = await instance(shared, clock);
    const theirs = await instance(shared, clock);
    await theirs.replace(withPrice(theirs.table(), 3000), ORIGIN);

    expect(mine.estimate('wx2.7-r2v', usage).priceVersion).toBe(1);
    clock.advance(10_000);
    mine.estimate('wx2.7-r2v', usage); // starts the background check
    await new Promise((r) => setImmediate(r));
    expect(mine.estimate('wx2.7-r2v', usage)).toMatchObject({ priceVersion: 2, amount: 15000 });
    expect(((await mine.latest()).models['wx2.7-r2v'] as AxModelPrice).per_second['720P']).toBe(3000);
  });
});
