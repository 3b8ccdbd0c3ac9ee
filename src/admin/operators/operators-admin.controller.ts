import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ChangeOrigin } from '../../core/audit/audit.types';
import { OperatorEntity } from '../../core/operators/operator.entity';
import { OperatorsService, operatorSnapshot } from '../../core/operators/operators.service';
import { dtoValidationPipe } from '../../platform/validation/gateway-validation.pipe';
import { Caller } from '../admin-caller';
import { ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from '../admin.errors';
import { AdminGuard } from '../admin.guard';
import { RequiresRole } from '../requires-role.decorator';
import { TakesEmptyBody } from '../empty-body';
import {
  CreateOperatorDto,
  IssuedOperatorResponse,
  OperatorListResponse,
  OperatorResponse,
  UpdateOperatorDto,
  WhoAmIResponse,
} from './operators.dto';
import { TakesNoQuery } from '../no-query.guard';

/** The people who run the gateway: the owner adds them, sets their role, disables them, rotates their token. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@UsePipes(dtoValidationPipe)
@Controller('admin/v1')
export class OperatorsAdminController {
  constructor(private readonly operators: OperatorsService) {}

  @Get('me')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Who the caller is: operator ID, name and role' })
  @ApiOkResponse({ type: WhoAmIResponse })
  me(@Caller() caller: ChangeOrigin): WhoAmIResponse {
    return { id: caller.actor.id, name: caller.actor.name, role: caller.actor.role };
  }

  @Get('operators')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Every operator (never a token)' })
  @ApiOkResponse({ type: OperatorListResponse })
  async list(): Promise<OperatorListResponse> {
    return { items: (await this.operators.list()).map(presentOperator) };
  }

  /** The token is in this answer only; it is stored as a hash. */
  @Post('operators')
  @RequiresRole('owner')
  @ApiOperation({ summary: 'Add an operator with a role; answers its token, once' })
  @ApiCreatedResponse({ type: IssuedOperatorResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS)
  async create(@Body() dto: CreateOperatorDto, @Caller() origin: ChangeOrigin): Promise<IssuedOperatorResponse> {
    const { operator, token } = await this.operators.create({ name: dto.name, role: dto.role }, origin);
    return { ...presentOperator(operator), token };
  }

  @Patch('operators/:id')
  @RequiresRole('owner')
  @ApiOperation({ summary: "Change an operator's role, or disable it (its token is refused at once)" })
  @ApiOkResponse({ type: OperatorResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.operatorNotFound)
  async update(
    @Param('id') id: string,
    @Body() dto: UpdateOperatorDto,
    @Caller() origin: ChangeOrigin,
  ): Promise<OperatorResponse> {
    return presentOperator(await this.operators.update(id, { role: dto.role, disabled: dto.disabled }, origin));
  }

  @Post('operators/:id/token')
  @RequiresRole('owner')
  @HttpCode(200)
  @ApiOperation({ summary: "Replace an operator's token: the old one is refused at once; the new one is shown once" })
  @TakesEmptyBody()
  @ApiOkResponse({ type: IssuedOperatorResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.operatorNotFound)
  async rotate(@Param('id') id: string, @Caller() origin: ChangeOrigin): Promise<IssuedOperatorResponse> {
    const { operator, token } = await this.operators.rotateToken(id, origin);
    return { ...presentOperator(operator), token };
  }
}

function presentOperator(operator: OperatorEntity): OperatorResponse {
  return { ...operatorSnapshot(operator), created_at: new Date(operator.createdAt).toISOString() };
}
