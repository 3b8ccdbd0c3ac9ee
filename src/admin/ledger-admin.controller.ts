import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { LedgerService } from '../core/billing/ledger.service';
import { AdminGuard } from './admin.guard';

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/ledger')
export class LedgerAdminController {
  constructor(private readonly ledger: LedgerService) {}

  /** Proves balance = credits - charges - open holds from the entries, for every account. */
  @Get('verify')
  verify() {
    return this.ledger.verify();
  }
}
