import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountsService } from '../core/accounts/accounts.service';
import type { ChangeOrigin } from '../core/audit/audit.types';
import { seesSecrets } from '../core/operators/operator-roles';
import { AccountFunding } from '../core/billing/account-funding.service';
import { dtoValidationPipe } from '../platform/validation/gateway-validation.pipe';
import { presentAccount, presentKey } from './account.presenter';
import { BalanceAdjustmentDto, CreateAccountDto, CreateKeyDto, ReplaceGrantsDto, UpdateAccountDto } from './admin.dto';
import { AdminQueryPipe } from './admin-query.pipe';
import { ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { TakesNoQuery } from './no-query.guard';
import { Caller } from './admin-caller';
import { RequiresRole } from './requires-role.decorator';
import { parseTimeValue } from './time-param';
import { AdminReadsService } from './reads/admin-reads.service';
import { AccountsQueryDto, DEFAULT_LIST_LIMIT } from './reads/reads.dto';
import { AccountKeysResponse, AccountPageResponse } from './reads/reads.responses';
import { AccountResponse, ApiKeyResponse, IssuedKeyResponse } from './admin.responses';

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@UseGuards(AdminGuard)
@UsePipes(dtoValidationPipe)
@Controller('admin/v1')
export class AccountsAdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly funding: AccountFunding,
    private readonly reads: AdminReadsService,
  ) {}

  @Get('accounts')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Accounts, newest first; `q` matches an ID exactly or part of a name' })
  @ApiOkResponse({ type: AccountPageResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.invalidQuery)
  search(@Query(AdminQueryPipe) dto: AccountsQueryDto): Promise<AccountPageResponse> {
    return this.reads.accounts({ q: dto.q, cursor: dto.cursor, limit: dto.limit ?? DEFAULT_LIST_LIMIT });
  }

  @Get('accounts/:id/keys')
  @RequiresRole('viewer')
  @ApiOperation({ summary: "An account's keys: prefix, name, models, created, last used, revoked" })
  @ApiOkResponse({ type: AccountKeysResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.accountNotFound)
  @TakesNoQuery()
  keys(@Param('id') id: string): Promise<AccountKeysResponse> {
    return this.reads.keys(id);
  }

  @TakesNoQuery()
  @Post('accounts')
  @RequiresRole('admin')
  @ApiCreatedResponse({ type: AccountResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS)
  async create(@Body() dto: CreateAccountDto, @Caller() origin: ChangeOrigin): Promise<AccountResponse> {
    return presentAccount(
      await this.funding.open(
        {
          name: dto.name,
          balance: dto.balance,
          rateLimitRpm: dto.rate_limit_rpm,
          maxConcurrentTasks: dto.max_concurrent_tasks,
        },
        origin,
      ),
    );
  }

  /** A viewer is not shown the webhook secret. */
  @TakesNoQuery()
  @Get('accounts/:id')
  @RequiresRole('viewer')
  @ApiOkResponse({ type: AccountResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.accountNotFound)
  async get(@Param('id') id: string, @Caller() caller: ChangeOrigin): Promise<AccountResponse> {
    return presentAccount(await this.accounts.details(id), seesSecrets(caller.actor.role));
  }

  @TakesNoQuery()
  @Patch('accounts/:id')
  @RequiresRole('admin')
  @ApiOkResponse({ type: AccountResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.accountNotFound)
  async update(
    @Param('id') id: string,
    @Body() dto: UpdateAccountDto,
    @Caller() origin: ChangeOrigin,
  ): Promise<AccountResponse> {
    return presentAccount(
      await this.accounts.update(
        id,
        {
          name: dto.name,
          disabled: dto.disabled,
          rateLimitRpm: dto.rate_limit_rpm,
          maxConcurrentTasks: dto.max_concurrent_tasks,
        },
        origin,
      ),
    );
  }

  /** The secret `key` is in this response only. */
  @TakesNoQuery()
  @Post('accounts/:id/keys')
  @RequiresRole('admin')
  @ApiCreatedResponse({ type: IssuedKeyResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.accountNotFound)
  async issueKey(
    @Param('id') id: string,
    @Body() dto: CreateKeyDto,
    @Caller() origin: ChangeOrigin,
  ): Promise<IssuedKeyResponse> {
    const { key, secret } = await this.accounts.issueKey(
      id,
      {
        name: dto.name,
        expiresAt: dto.expires_at == null ? null : parseTimeValue(dto.expires_at),
        models: dto.models ?? null,
      },
      origin,
    );
    return { ...presentKey(key), key: secret };
  }

  @TakesNoQuery()
  @Delete('keys/:keyId')
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOkResponse({ type: ApiKeyResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.keyNotFound)
  async revoke(@Param('keyId') keyId: string, @Caller() origin: ChangeOrigin): Promise<ApiKeyResponse> {
    return presentKey(await this.accounts.revokeKey(keyId, origin));
  }

  @TakesNoQuery()
  @Put('accounts/:id/models')
  @RequiresRole('admin')
  @ApiOkResponse({ type: AccountResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.accountNotFound)
  async replaceModels(
    @Param('id') id: string,
    @Body() dto: ReplaceGrantsDto,
    @Caller() origin: ChangeOrigin,
  ): Promise<AccountResponse> {
    return presentAccount(await this.accounts.replaceGrants(id, dto.models, origin));
  }

  @TakesNoQuery()
  @Post('accounts/:id/balance')
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOkResponse({ type: AccountResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.accountNotFound)
  async adjustBalance(
    @Param('id') id: string,
    @Body() dto: BalanceAdjustmentDto,
    @Caller() origin: ChangeOrigin,
  ): Promise<AccountResponse> {
    return presentAccount(await this.funding.adjust(id, dto.delta, dto.reason, origin));
  }
}
