import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { UsageLog, UsageQuery } from '../core/billing/usage-log.service';
import { GatewayError } from '../platform/errors';
import { AdminFiltersPipe } from './admin-filters.pipe';
import { AdminQueryPipe } from './admin-query.pipe';
import { wantsCsv } from './csv';
import { ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { RequiresRole } from './requires-role.decorator';
import { UsagePageResponse } from './admin.responses';
import { AdminReadsService, dailyUsageCsv } from './reads/admin-reads.service';
import { DailyUsageQueryDto } from './reads/reads.dto';
import { DailyUsageResponse } from './reads/reads.responses';
import { DEFAULT_PAGE_SIZE, UsageQueryDto } from './usage.dto';
import { presentUsageRow, usageCsv } from './usage.presenter';

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@UseGuards(AdminGuard)
@Controller('admin/v1/usage')
export class UsageAdminController {
  constructor(
    private readonly usage: UsageLog,
    private readonly reads: AdminReadsService,
  ) {}

  /** The usage log, newest first; `Accept: text/csv` or `format=csv` exports the same rows as CSV. */
  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Usage log rows (one per charged task), filtered and paged; JSON or CSV' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    type: UsagePageResponse,
    description:
      'JSON `{items, total}`; or CSV: a header line, then one line per row (`usage` as JSON text), with `X-Total-Count`.',
  })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.invalidPeriod, ADMIN_ERROR_CAUSES.invalidFilter)
  async list(
    @Query(AdminQueryPipe, AdminFiltersPipe) dto: UsageQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UsagePageResponse | string> {
    const page = await this.usage.list(toUsageQuery(dto));
    res.vary('Accept');
    if (wantsCsv(dto.format, req)) {
      res.type('text/csv');
      res.setHeader('Content-Disposition', 'attachment; filename="usage.csv"');
      res.setHeader('X-Total-Count', String(page.total));
      return usageCsv(page.items);
    }
    return { items: page.items.map(presentUsageRow), total: page.total };
  }

  /** Charged tasks and amounts per UTC day and model; `format=csv` or `Accept: text/csv` for CSV. */
  @Get('daily')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Usage per day and model (charged tasks, amount); JSON or CSV' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    type: DailyUsageResponse,
    description: 'JSON `{items}`, oldest day first; or CSV `day,model,tasks,amount`.',
  })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.invalidPeriod, ADMIN_ERROR_CAUSES.invalidFilter)
  async daily(
    @Query(AdminQueryPipe, AdminFiltersPipe) dto: DailyUsageQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DailyUsageResponse | string> {
    const items = await this.reads.dailyUsage({
      accountId: dto.account_id,
      model: dto.model,
      fromMs: dto.from,
      toMs: dto.to,
    });
    res.vary('Accept');
    if (wantsCsv(dto.format, req)) {
      res.type('text/csv');
      res.setHeader('Content-Disposition', 'attachment; filename="usage-daily.csv"');
      return dailyUsageCsv(items);
    }
    return { items };
  }
}

function toUsageQuery(dto: UsageQueryDto): UsageQuery {
  if (dto.from !== undefined && dto.to !== undefined && dto.from > dto.to)
    throw GatewayError.invalid('to must not be earlier than from.', 'to');
  return {
    accountId: dto.account_id,
    model: dto.model,
    fromMs: dto.from,
    toMs: dto.to,
    page: dto.page ?? 1,
    pageSize: dto.page_size ?? DEFAULT_PAGE_SIZE,
  };
}
