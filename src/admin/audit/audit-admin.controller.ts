import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuditEntryEntity } from '../../core/audit/audit-entry.entity';
import { AuditFilter } from '../../core/audit/audit.repository';
import { AuditTrail } from '../../core/audit/audit.service';
import { GatewayError } from '../../platform/errors';
import { AdminQueryPipe } from '../admin-query.pipe';
import { ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from '../admin.errors';
import { AdminGuard } from '../admin.guard';
import { DEFAULT_LIST_LIMIT } from '../reads/reads.dto';
import { cursorPage, decodeCursor } from '../reads/cursor';
import { toCsv, wantsCsv } from '../csv';
import { RequiresRole } from '../requires-role.decorator';
import { AuditEntryResponse, AuditPageResponse, AuditQueryDto } from './audit.dto';

const CSV_BATCH = 500;
const CSV_HEADER = [
  'id',
  'seq',
  'at',
  'actor_id',
  'actor_name',
  'actor_role',
  'action',
  'target_type',
  'target_id',
  'account_id',
  'before',
  'after',
  'request_id',
  'ip',
] as const;

/** The audit trail, read only: no route changes or removes an entry. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@UseGuards(AdminGuard)
@Controller('admin/v1/audit')
export class AuditAdminController {
  constructor(private readonly audit: AuditTrail) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Admin changes, newest first: who, what, on what, before and after; JSON pages or CSV' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    type: AuditPageResponse,
    description: 'JSON `{items, next_cursor}`; or CSV of every matching entry from the cursor on.',
  })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.invalidQuery)
  async list(
    @Query(AdminQueryPipe) dto: AuditQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuditPageResponse | string> {
    if (dto.from !== undefined && dto.to !== undefined && dto.from > dto.to)
      throw GatewayError.invalid('to must not be earlier than from.', 'to');
    const filter: AuditFilter = {
      actorId: dto.actor,
      action: dto.action,
      targetType: dto.target_type,
      targetId: dto.target_id,
      accountId: dto.account_id,
      fromMs: dto.from,
      toMs: dto.to,
    };
    res.vary('Accept');
    if (wantsCsv(dto.format, req)) {
      res.type('text/csv');
      res.setHeader('Content-Disposition', 'attachment; filename="audit.csv"');
      return toCsv(CSV_HEADER, (await this.everyEntry(filter, dto.cursor)).map(csvRow));
    }
    return cursorPage(
      { cursor: dto.cursor, limit: dto.limit ?? DEFAULT_LIST_LIMIT },
      async (after, take) => (await this.audit.page(filter, after?.createdAt, take)).map(atChainPosition),
      ({ entry }) => presentEntry(entry),
    );
  }

  private async everyEntry(filter: AuditFilter, cursor: string | undefined): Promise<AuditEntryEntity[]> {
    const rows: AuditEntryEntity[] = [];
    let beforeSeq = cursor === undefined ? undefined : decodeCursor(cursor).createdAt;
    for (;;) {
      const batch = await this.audit.page(filter, beforeSeq, CSV_BATCH);
      rows.push(...batch);
      if (batch.length < CSV_BATCH) return rows;
      beforeSeq = batch[batch.length - 1].seq;
    }
  }
}

/**
 * Entries are paged in chain order, which orders them exactly (times may tie): the cursor's
 * position is the chain position where the list's cursors hold a creation time.
 */
function atChainPosition(entry: AuditEntryEntity): { createdAt: number; id: string; entry: AuditEntryEntity } {
  return { createdAt: entry.seq, id: entry.id, entry };
}

function presentEntry(e: AuditEntryEntity): AuditEntryResponse {
  return {
    id: e.id,
    seq: e.seq,
    at: new Date(e.createdAt).toISOString(),
    actor: { id: e.actorId, name: e.actorName, role: e.actorRole },
    action: e.action,
    target: { type: e.targetType, id: e.targetId, account_id: e.accountId },
    before: e.before === null ? null : (JSON.parse(e.before) as unknown),
    after: e.after === null ? null : (JSON.parse(e.after) as unknown),
    request_id: e.requestId,
    ip: e.ip,
  };
}

function csvRow(e: AuditEntryEntity): unknown[] {
  return [
    e.id,
    e.seq,
    new Date(e.createdAt).toISOString(),
    e.actorId,
    e.actorName,
    e.actorRole,
    e.action,
    e.targetType,
    e.targetId,
    e.accountId,
    e.before,
    e.after,
    e.requestId,
    e.ip,
  ];
}
