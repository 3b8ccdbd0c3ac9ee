import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { existsSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { Repository } from 'typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { TransactionRunner, isUniqueViolation } from '../../platform/database/transaction-runner';
import { GatewayError } from '../../platform/errors';
import { Clock } from '../../platform/time/clock';
import { AuditTrail } from '../audit/audit.service';
import { ChangeOrigin } from '../audit/audit.types';
import { BillableUsage, TaskOutcome } from './billable-usage';
import { PriceVersionEntity } from './entities/price-version.entity';
import {
  Charge,
  DEFAULT_PRICES_FILE,
  PriceTable,
  PricingCatalogue,
  billedSeconds,
  estimateCharge,
  finalCharge,
  loadPriceTable,
  validatePriceTable,
} from './pricing/index';

/** How stale another instance's view of the prices may get after a `PUT /admin/v1/prices`. */
const REFRESH_MS = 5000;
/** Concurrent PUTs that race for the same version number retry this often before giving up. */
const REPLACE_ATTEMPTS = 5;

/**
 * The pricing table in force and every earlier version. The shipped file seeds version history;
 * the admin API adds versions. A task is settled at the version it was held at.
 */
@Injectable()
export class PricingService implements OnModuleInit {
  private current: PriceTable;
  private readonly versions = new Map<number, PriceTable>();
  private checkedAt = 0;
  private checking: Promise<unknown> | null = null;

  constructor(
    @InjectRepository(PriceVersionEntity) private readonly repo: Repository<PriceVersionEntity>,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly catalogue: PricingCatalogue,
    // Absent only where the table is never replaced (fakes that price alone).
    @Optional() private readonly transactions?: TransactionRunner,
    @Optional() private readonly audit?: AuditTrail,
  ) {}

  async onModuleInit(): Promise<void> {
    const fromFile = loadPriceTable(findPricesFile(this.config.PRICES_FILE), this.catalogue);
    const latest = await this.repo.find({ order: { version: 'DESC' }, take: 1 });
    if (latest.length === 0 || latest[0].version < fromFile.version) {
      await this.repo.save({
        version: fromFile.version,
        table: fromFile as unknown as Record<string, unknown>,
        createdAt: this.clock.nowMs(),
      });
      this.use(fromFile);
    } else {
      this.use(validatePriceTable(latest[0].table, this.catalogue));
    }
    this.checkedAt = this.clock.nowMs();
  }

  table(): PriceTable {
    return this.current;
  }

  /** The table in force as stored now (another instance may have replaced it). */
  async latest(): Promise<PriceTable> {
    await this.adoptNewest();
    return this.current;
  }

  /** Synchronous on the hot path; the in-memory table follows the stored one within REFRESH_MS. */
  estimate(model: string, usage: BillableUsage): Charge {
    this.refreshSoon();
    return estimateCharge(this.catalogue, this.current, model, usage);
  }

  /** The seconds a finished task is billed for, and whether the upstream reported them. */
  billedSeconds(usage: BillableUsage, outcome: TaskOutcome): { seconds: number; reported: boolean } {
    return billedSeconds(this.catalogue, usage, outcome);
  }

  async final(model: string, usage: BillableUsage, outcome: TaskOutcome, version: number | null): Promise<Charge> {
    return finalCharge(this.catalogue, await this.version(version), model, usage, outcome);
  }

  /**
   * Validates and stores a new table as the next version (400 naming the field when invalid), with
   * its audit entry in the same transaction. The version sent is not used: the next one always is,
   * so reading the table, editing it and sending it back works every time. The unit cannot change:
   * every balance, hold and charge already stored is counted in it.
   */
  async replace(raw: unknown, origin: ChangeOrigin): Promise<PriceTable> {
    const candidate = validatePriceTable(raw, this.catalogue);
    if (candidate.unit !== this.current.unit)
      throw GatewayError.invalid(
        `unit must stay '${this.current.unit}': every balance, hold and charge is counted in it.`,
        'unit',
      );
    const transactions = this.transactions!;
    for (let attempt = 1; ; attempt++) {
      const latest = await this.repo.find({ order: { version: 'DESC' }, take: 1 });
      const version = Math.max((latest[0]?.version ?? 0) + 1, this.current.version + 1);
      const table = { ...candidate, version };
      try {
        await transactions.run(async (tx) => {
          // insert, never save: save would silently overwrite a version another PUT just stored.
          await tx.getRepository(PriceVersionEntity).insert(
            Object.assign(new PriceVersionEntity(), {
              version,
              table: table as unknown as Record<string, unknown>,
              createdAt: this.clock.nowMs(),
            }) as never,
          );
          await this.audit!.record(tx, origin, {
            action: 'price.update',
            target: { type: 'prices', id: 'table' },
            before: latest[0]?.table ?? null,
            after: table,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error) && attempt < REPLACE_ATTEMPTS) continue;
        throw error;
      }
      this.use(table);
      return table;
    }
  }

  private use(table: PriceTable): void {
    if (!this.current || table.version >= this.current.version) this.current = table;
    this.versions.set(table.version, table);
  }

  /** Starts a background check for a newer stored version, at most once per REFRESH_MS. */
  private refreshSoon(): void {
    if (this.checking || this.clock.nowMs() - this.checkedAt < REFRESH_MS) return;
    this.checking = this.adoptNewest()
      .catch(() => undefined) // a failed check keeps the table in force; the next one retries
      .finally(() => (this.checking = null));
  }

  private async adoptNewest(): Promise<void> {
    this.checkedAt = this.clock.nowMs();
    const latest = await this.repo.find({ order: { version: 'DESC' }, take: 1 });
    if (latest.length > 0 && latest[0].version > this.current.version)
      this.use(validatePriceTable(latest[0].table, this.catalogue));
  }

  private async version(version: number | null): Promise<PriceTable> {
    if (version === null) return this.current;
    const cached = this.versions.get(version);
    if (cached) return cached;
    const row = await this.repo.findOneBy({ version });
    if (!row) return this.current;
    const table = validatePriceTable(row.table, this.catalogue);
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
