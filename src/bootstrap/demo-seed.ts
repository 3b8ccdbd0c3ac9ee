import { INestApplication } from '@nestjs/common';
import { AccountsService } from '../core/accounts/accounts.service';
import { AccountsRepository } from '../core/accounts/repositories/accounts.repository';
import { AccountFunding } from '../core/billing/account-funding.service';
import { AccountEntity } from '../core/accounts/entities/account.entity';
import { SYSTEM_ORIGIN } from '../core/audit/audit.types';
import { ModelCatalogue } from '../core/models/model-catalogue';
import { DataSource } from 'typeorm';

/** Demo balance: 10,000 credits in millicredit units. */
const DEMO_BALANCE = 10_000_000;

export const DEMO_ACCOUNT_NAME = 'demo';

export interface DemoAccount {
  accountId: string;
  /** The API key, only when the account was created by this start (the secret is never stored). */
  key: string | null;
}

/**
 * With the simulator in use and an empty database (or DEMO_SEED=true), creates a demo account with
 * every model enabled and returns its API key, to be printed once. On later starts with the
 * simulator, returns the demo account created earlier (without a key) so that the start banner
 * can say how to get a new key. DEMO_SEED=false: nothing.
 */
export async function seedDemoAccount(
  app: INestApplication,
  explicit: boolean | undefined,
  simulatorInUse: boolean,
): Promise<DemoAccount | null> {
  const accounts = app.get(AccountsRepository);
  const wanted = explicit ?? (simulatorInUse && (await accounts.count()) === 0);
  if (!wanted) return explicit === false || !simulatorInUse ? null : findDemoAccount(app);
  const service = app.get(AccountsService);
  const { account } = await app
    .get(AccountFunding)
    .open({ name: DEMO_ACCOUNT_NAME, balance: DEMO_BALANCE }, SYSTEM_ORIGIN);
  await service.replaceGrants(
    account.id,
    app
      .get(ModelCatalogue)
      .all()
      .map((m) => ({ model: m.name })),
    SYSTEM_ORIGIN,
  );
  const { secret } = await service.issueKey(account.id, { name: 'demo' }, SYSTEM_ORIGIN);
  return { accountId: account.id, key: secret };
}

/** The oldest account named `demo` (the one the first start created), if any. */
async function findDemoAccount(app: INestApplication): Promise<DemoAccount | null> {
  const found = await app
    .get(DataSource)
    .getRepository(AccountEntity)
    .findOne({ where: { name: DEMO_ACCOUNT_NAME }, order: { createdAt: 'ASC' } });
  return found ? { accountId: found.id, key: null } : null;
}
