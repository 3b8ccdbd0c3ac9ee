import { Inject, Injectable } from '@nestjs/common';
import { keyAllowsModel } from '../core/accounts/guards/model-access.guard';
import { Principal } from '../core/accounts/principal';
import { ModelCatalogue } from '../core/models/model-catalogue';
import { AppConfig } from '../platform/config/app-config';
import { GatewayError } from '../platform/errors';
import { Clock } from '../platform/time/clock';
import { MeRepository } from './me.repository';
import { MeResponse } from './me.responses';

/** Self-service for key holders: the calling key's account, what the key may use, and this month's spend. */
@Injectable()
export class MeService {
  constructor(
    private readonly me: MeRepository,
    private readonly catalogue: ModelCatalogue,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async describe(principal: Principal): Promise<MeResponse> {
    const now = this.clock.now();
    const since = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const [account, usage] = await Promise.all([
      this.me.account(principal.account.id),
      this.me.chargedSince(principal.account.id, since),
    ]);
    if (!account) throw GatewayError.unauthorized();
    const models = [...principal.grants.entries()]
      .filter(([name]) => keyAllowsModel(principal.apiKey.models, name))
      .map(([name, capabilities]) => ({
        model: name,
        family: this.catalogue.find(name)?.family ?? '',
        capabilities: [...capabilities],
      }))
      .sort((a, b) => a.model.localeCompare(b.model));
    return {
      account_id: account.id,
      account_name: account.name,
      balance: account.balance,
      held: account.held,
      key_prefix: principal.apiKey.prefix,
      models,
      rate_limit_rpm: account.rateLimitRpm ?? this.config.DEFAULT_RATE_LIMIT_RPM,
      max_concurrent_tasks: account.maxConcurrentTasks ?? this.config.DEFAULT_MAX_CONCURRENT_TASKS,
      usage_this_month: { since: new Date(since).toISOString(), ...usage },
    };
  }
}
