import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PriceTable } from '../core/billing/pricing';
import { PricingService } from '../core/billing/pricing.service';
import { ADMIN_BODY_ERRORS, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { Caller } from './admin-caller';
import { RequiresRole } from './requires-role.decorator';
import type { ChangeOrigin } from '../core/audit/audit.types';
import { PriceTablePipe } from './price-table.pipe';
import { GatewayError } from '../platform/errors';
import { ErrorCause } from '../platform/http/openapi/error-responses';
import { TakesNoQuery } from './no-query.guard';

const TABLE_SCHEMA = {
  type: 'object',
  required: ['version', 'unit', 'currency_unit', 'models'],
  properties: {
    version: {
      type: 'integer',
      minimum: 1,
      description: 'Sent: may be left out, as every table sent is stored as the next version, whatever this says.',
    },
    unit: { type: 'string', example: 'millicredit' },
    currency_unit: { type: 'string', example: '1 unit = 1/1000 credit' },
    notes: { type: 'array', items: { type: 'string' } },
    models: {
      type: 'object',
      description:
        'One entry per catalogue model (all are required; the example shows three), shaped by its family: see config/prices.json.',
      additionalProperties: { type: 'object' },
    },
  },
  example: {
    version: 2,
    unit: 'millicredit',
    currency_unit: '1 unit = 1/1000 credit',
    models: {
      'wx2.7-r2v': { per_second: { '720P': 1100, '1080P': 1700 }, per_reference_image: 200, per_reference_video: 500 },
      vdq3: {
        per_second: { '540p': 500, '720p': 800, '1080p': 1400 },
        audio_bp: 12000,
        off_peak_bp: 7000,
        per_reference_video: 0,
      },
      'kl-v1-6': { edit_per_second: { std: 700, pro: 1200 }, voice: 5000 },
    },
  },
};

/** A table that leaves a model of the catalogue without a price is refused, naming the model. */
const PRICE_TABLE_INVALID: ErrorCause = {
  name: 'missing_price',
  error: GatewayError.invalid('models.vdq3 has no price entry.', 'models.vdq3'),
  when: 'A model of the catalogue has no entry, or an entry breaks its family’s rules (`param` names the field).',
};

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@Controller('admin/v1/prices')
export class PricesAdminController {
  constructor(private readonly pricing: PricingService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'The pricing table in force, with its version (integer units)' })
  @ApiOkResponse({ schema: TABLE_SCHEMA })
  current(): Promise<PriceTable> {
    return this.pricing.latest();
  }

  /** The body is checked by the pricing rules (400 naming the field, e.g. `models.vdq3.per_second.720p`). */
  @Put()
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Replace the pricing table; stored as a new version used by every later hold' })
  @ApiBody({ schema: { ...TABLE_SCHEMA, required: TABLE_SCHEMA.required.filter((name) => name !== 'version') } })
  @ApiOkResponse({ description: 'The table as stored, with its new version', schema: TABLE_SCHEMA })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, PRICE_TABLE_INVALID)
  replace(@Body(PriceTablePipe) table: PriceTable, @Caller() origin: ChangeOrigin): Promise<PriceTable> {
    return this.pricing.replace(table, origin);
  }
}
