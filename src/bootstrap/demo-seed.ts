import { INestApplication } from '@nestjs/common';
import { AccountsService } from '../core/accounts/accounts.service';
import { AccountsRepository } from '../core/accounts/repositories/accounts.repository';
import { MODEL_CATALOGUE } from '../core/models/catalogue';

/** Demo balance: 10,000 credits in millicredit units. */
const DEMO_BALANCE = 10_000_000;

/**
 * With the simulator in use and an empty database (or DEMO_SEED=true), creates a demo account with
 * every model enabled and returns its API key, to be printed once.
 */
export async function seedDemoAccount(app: INestApplication, explicit: boolean | undefined, simulatorInUse: boolean): Promise<string | null> {
  const accounts = app.get(AccountsRepository);
  const wanted = explicit ?? (simulatorInUse && (await accounts.count()) === 0);
  if (!wanted) return null;
  const service = app.get(AccountsService);
  const { account } = await service.create({ name: 'demo', balance: DEMO_BALANCE });
  await service.replaceGrants(account.id, MODEL_CATALOGUE.map((m) => ({ model: m.name })));
  const { secret } = await service.issueKey(account.id, { name: 'demo' });
  return secret;
}
