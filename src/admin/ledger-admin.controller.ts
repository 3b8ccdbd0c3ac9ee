import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { LedgerService } from '../core/billing/ledger.service';
import { ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { RequiresRole } from './requires-role.decorator';
import { LedgerVerificationResponse } from './admin.responses';
import { TakesNoQuery } from './no-query.guard';

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@Controller('admin/v1/ledger')
export class LedgerAdminController {
  constructor(private readonly ledger: LedgerService) {}

  /** Proves balance = credits - charges - open holds from the entries, for every account. */
  @Get('verify')
  @RequiresRole('viewer')
  @ApiOkResponse({ type: LedgerVerificationResponse })
  verify(): Promise<LedgerVerificationResponse> {
    return this.ledger.verify();
  }
}
