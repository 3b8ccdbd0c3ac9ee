import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { existsSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { Repository } from 'typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { Clock } from '../../platform/time/clock';
import { BillableUsage, TaskOutcome } from './billable-usage';
import { PriceVersionEntity } from './entities/price-version.entity';
import { Charge, DEFAULT_PRICES_FILE, PriceTable, estimateCharge, finalCharge, loadPriceTable, validatePriceTable } from './pricing/index';

/**
 * The pricing table in force and every earlier version. The shipped file seeds version history;
 * the admin API adds versions. A task is settled at the version it was held at.
 */
@Injectable()
export class PricingService implements OnModuleInit {
  private current: PriceTable;
  private readonly versions = new Map<number, PriceTable>();

  constructor(
    @InjectRepository(PriceVersionEntity) private readonly repo: Repository<PriceVersionEntity>,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    const fromFile = loadPriceTable(findPricesFile(this.config.PRICES_FILE));
    const latest = await this.repo.find({ order: { version: 'DESC' }, take: 1 });
    if (latest.length === 0 || latest[0].version < fromFile.version) {
      await this.repo.save({ version: fromFile.version, table: fromFile as unknown as Record<string, unknown>, createdAt: this.clock.nowMs() });
      this.use(fromFile);
    } else {
      this.use(validatePriceTable(latest[0].table));
    }
  }

  table(): PriceTable {
    return this.current;
  }

  estimate(model: string, usage: BillableUsage): Charge {
    return estimateCharge(this.current, model, usage);
  }

  async final(model: string, usage: BillableUsage, outcome: TaskOutcome, version: number | null): Promise<Charge> {
    return finalCharge(await this.version(version), model, usage, outcome);
  }

  /** Validates and stores a new table as the next version (400 naming the field when invalid). */
  async replace(raw: unknown): Promise<PriceTable> {
    const candidate = validatePriceTable(raw);
    const latest = await this.repo.find({ order: { version: 'DESC' }, take: 1 });
    const version = Math.max(candidate.version, (latest[0]?.version ?? 0) + 1, this.current.version + 1);
    const table = { ...candidate, version };
    await this.repo.save({ version, table: table as unknown as Record<string, unknown>, createdAt: this.clock.nowMs() });
    this.use(table);
    return table;
  }

  private use(table: PriceTable): void {
    this.current = table;
    this.versions.set(table.version, table);
  }

  private async version(version: number | null): Promise<PriceTable> {
    if (version === null) return this.current;
    const cached = this.versions.get(version);
    if (cached) return cached;
    const row = await this.repo.findOneBy({ version });
    if (!row) return this.current;
    const table = validatePriceTable(row.table);
    this.versions.set(version, table);
    return table;
  }
}

/** The prices file: as configured, else config/prices.json from the working directory or the package root. */
function findPricesFile(configured: string | undefined): string {
  if (configured) return configured;
  if (existsSync(resolve(DEFAULT_PRICES_FILE))) return resolve(DEFAULT_PRICES_FILE);
  let dir = __dirname;
  while (dirname(dir) !== dir) {
    const candidate = join(dir, DEFAULT_PRICES_FILE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return DEFAULT_PRICES_FILE;
}
