import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ModelCatalogue } from '../core/models/model-catalogue';
import { ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { TakesNoQuery } from './no-query.guard';
import { RequiresRole } from './requires-role.decorator';

export class CatalogueModelResponse {
  @ApiProperty({ example: 'vdq3' }) name: string;
  @ApiProperty({ example: 'vd' }) family: string;
  @ApiProperty({ type: [String], example: ['reference2video'] }) capabilities: string[];
}

export class CatalogueResponse {
  @ApiProperty({ type: [CatalogueModelResponse] }) data: CatalogueModelResponse[];
}

/** The model catalogue, for choosing grants and key restrictions from a list rather than typing names. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@Controller('admin/v1/models')
export class ModelsAdminController {
  constructor(private readonly catalogue: ModelCatalogue) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Every model the gateway serves: its family and capabilities, by family then name' })
  @ApiOkResponse({ type: CatalogueResponse })
  list(): CatalogueResponse {
    const data = this.catalogue
      .all()
      .map((model) => ({ name: model.name, family: model.family, capabilities: [...model.capabilities] }))
      .sort((a, b) => a.family.localeCompare(b.family) || a.name.localeCompare(b.name));
    return { data };
  }
}
