import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { UsageLog, UsageQuery } from '../core/billing/usage-log.service';
import { GatewayError } from '../platform/errors';
import { AdminQueryPipe } from './admin-query.pipe';
import { AdminGuard } from './admin.guard';
import { DEFAULT_PAGE_SIZE, UsageQueryDto } from './usage.dto';
import { presentUsageRow, usageCsv } from './usage.presenter';

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/usage')
export class UsageAdminController {
  constructor(private readonly usage: UsageLog) {}

  /** The usage log, newest first; `Accept: text/csv` or `format=csv` exports the same rows as CSV. */
  @Get()
  @ApiOperation({ summary: 'Usage log rows (one per charged task), filtered and paged; JSON or CSV' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      'JSON `{items, total}`; or CSV: a header line, then one line per row (`usage` as JSON text), with `X-Total-Count`.',
  })
  async list(
    @Query(AdminQueryPipe) dto: UsageQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const page = await this.usage.list(toUsageQuery(dto));
    res.vary('Accept');
    if (
      dto.format === 'csv' ||
      (dto.format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv')
    ) {
      res.type('text/csv');
      res.setHeader('Content-Disposition', 'attachment; filename="usage.csv"');
      res.setHeader('X-Total-Count', String(page.total));
      return usageCsv(page.items);
    }
    return { items: page.items.map(presentUsageRow), total: page.total };
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
