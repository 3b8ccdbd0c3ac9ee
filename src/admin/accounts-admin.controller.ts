import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AccountsService } from '../core/accounts/accounts.service';
import { AccountFunding } from '../core/billing/account-funding.service';
import { GatewayError } from '../platform/errors';
import { dtoValidationPipe } from '../platform/validation/gateway-validation.pipe';
import { presentAccount, presentKey } from './account.presenter';
import { BalanceAdjustmentDto, CreateAccountDto, CreateKeyDto, ReplaceGrantsDto, UpdateAccountDto } from './admin.dto';
import { AdminGuard } from './admin.guard';

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@UsePipes(dtoValidationPipe)
@Controller('admin/v1')
export class AccountsAdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly funding: AccountFunding,
  ) {}

  @Post('accounts')
  async create(@Body() dto: CreateAccountDto) {
    return presentAccount(
      await this.funding.open({
        name: dto.name,
        balance: dto.balance,
        rateLimitRpm: dto.rate_limit_rpm,
        maxConcurrentTasks: dto.max_concurrent_tasks,
      }),
    );
  }

  @Get('accounts/:id')
  async get(@Param('id') id: string) {
    return presentAccount(await this.accounts.details(id));
  }

  @Patch('accounts/:id')
  async update(@Param('id') id: string, @Body() dto: UpdateAccountDto) {
    return presentAccount(
      await this.accounts.update(id, {
        name: dto.name,
        disabled: dto.disabled,
        rateLimitRpm: dto.rate_limit_rpm,
        maxConcurrentTasks: dto.max_concurrent_tasks,
      }),
    );
  }

  /** The secret `key` is in this response only. */
  @Post('accounts/:id/keys')
  async issueKey(@Param('id') id: string, @Body() dto: CreateKeyDto) {
    const { key, secret } = await this.accounts.issueKey(id, {
      name: dto.name,
      expiresAt: parseExpiry(dto.expires_at),
      models: dto.models ?? null,
    });
    return { ...presentKey(key), key: secret };
  }

  @Delete('keys/:keyId')
  @HttpCode(200)
  async revoke(@Param('keyId') keyId: string) {
    return presentKey(await this.accounts.revokeKey(keyId));
  }

  @Put('accounts/:id/models')
  async replaceModels(@Param('id') id: string, @Body() dto: ReplaceGrantsDto) {
    return presentAccount(await this.accounts.replaceGrants(id, dto.models));
  }

  @Post('accounts/:id/balance')
  @HttpCode(200)
  async adjustBalance(@Param('id') id: string, @Body() dto: BalanceAdjustmentDto) {
    return presentAccount(await this.funding.adjust(id, dto.delta, dto.reason));
  }
}

/** `expires_at` as ISO 8601 or Unix seconds -> epoch ms. */
function parseExpiry(value: string | number | undefined): number | null {
  if (value === undefined || value === null) return null;
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value);
  if (!Number.isFinite(ms) || (typeof value === 'number' && !Number.isInteger(value))) {
    throw GatewayError.invalid('expires_at must be an ISO 8601 time or Unix seconds.', 'expires_at');
  }
  return ms;
}
