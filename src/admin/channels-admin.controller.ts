import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { ChannelControl } from '../core/channel-settings/channel-control.service';
import { GatewayError } from '../platform/errors';
import { dtoValidationPipe } from '../platform/validation/gateway-validation.pipe';
import { IsOmittable } from '../platform/validation/is-omittable';
import type { ChannelState } from '../upstream/channel-routing/channel-registry';
import type { CallCounts } from '../upstream/channel-routing/channel-stats';
import { ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { TakesNoQuery } from './no-query.guard';
import { Caller } from './admin-caller';
import { RequiresRole } from './requires-role.decorator';
import { TakesEmptyBody } from './empty-body';
import type { ChangeOrigin } from '../core/audit/audit.types';
import { requireRole } from '../core/operators/operator-roles';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class UpdateChannelDto {
  @ApiPropertyOptional({ description: 'false: the channel takes no new task (it still serves the tasks it holds)' })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
  @ApiPropertyOptional({
    type: 'integer',
    example: 3,
    description: 'Share of new tasks within its priority tier; 0 takes none',
  })
  @IsOmittable()
  @Min(0)
  @Max(1_000_000)
  @IsInt()
  weight?: number;
  @ApiPropertyOptional({ type: 'integer', example: 1, description: 'Its tier: higher tiers take new tasks first' })
  @IsOmittable()
  @Min(-1000)
  @Max(1000)
  @IsInt()
  priority?: number;
}

/** What the upstream said to a query made with the channel's credential (a task that does not exist). */
export class ChannelCheckResponse {
  @ApiProperty({ example: 'ax-backup' }) channel_id: string;
  @ApiProperty({
    enum: ['accepted', 'refused', 'unknown'],
    description: 'accepted: the upstream answered the query; refused: it refused the credential; unknown: no answer',
  })
  credential: string;
  @ApiProperty({ type: Boolean, nullable: true, description: 'null when the upstream gave no verdict' })
  accepted: boolean | null;
  @ApiProperty({ type: Number, nullable: true, description: "The upstream's HTTP status" }) http_status: number | null;
  @ApiProperty({ type: String, nullable: true, description: "The upstream's own code" }) code: string | null;
  @ApiProperty({ description: "The upstream's answer in words (credentials masked)" }) message: string;
  @ApiProperty() latency_ms: number;
  @ApiProperty() checked_at: string;
}

export class ChannelCallCountsResponse {
  @ApiProperty({ description: 'Create calls sent to the channel' }) creates: number;
  @ApiProperty({ description: 'Of those, the ones that failed (refused, unavailable, no answer)' }) errors: number;
}

export class ChannelLatencyResponse {
  @ApiProperty() p50: number;
  @ApiProperty() p99: number;
}

export class ChannelErrorResponse {
  @ApiProperty() at: string;
  @ApiProperty({ description: 'Credentials masked' }) message: string;
}

/** One upstream channel: its settings, state and recent figures; never its credentials or address. */
export class ChannelResponse {
  @ApiProperty({ example: 'ax-backup' }) id: string;
  @ApiProperty({ example: 'ax' }) family: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty() weight: number;
  @ApiProperty({ description: 'Higher tiers take new tasks first' }) priority: number;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'Public models it serves; null: every model of its family',
  })
  models: readonly string[] | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Open tasks allowed at once; null: no limit' })
  max_in_flight: number | null;
  @ApiProperty({ description: 'Tasks open on it (created, not ended), across instances' }) in_flight: number;
  @ApiProperty({ enum: ['closed', 'open', 'half-open'], description: "This instance's circuit breaker" })
  breaker: string;
  @ApiProperty({ type: String, nullable: true, description: 'Out of balance: takes no new task until then' })
  cooling_down_until: string | null;
  @ApiProperty({ type: ChannelCallCountsResponse, description: "This instance's creates in the last minute" })
  last_minute: ChannelCallCountsResponse;
  @ApiProperty({ type: ChannelCallCountsResponse, description: "This instance's creates in the last hour" })
  last_hour: ChannelCallCountsResponse;
  @ApiProperty({ type: ChannelLatencyResponse, nullable: true, description: 'Create latency (ms), last hour' })
  latency_ms: ChannelLatencyResponse | null;
  @ApiProperty({ type: ChannelErrorResponse, nullable: true }) last_error: ChannelErrorResponse | null;
  @ApiProperty({
    description:
      "false: the upstream refuses the channel's credentials, its breaker is open, or its account is out of balance",
  })
  healthy: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it is unhealthy (credentials masked); null when healthy',
  })
  unhealthy_reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Since when it is unhealthy; null when healthy' })
  unhealthy_since: string | null;
}

export class ChannelListResponse {
  @ApiProperty({ type: [ChannelResponse] }) data: ChannelResponse[];
}

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@UsePipes(dtoValidationPipe)
@Controller('admin/v1/channels')
export class ChannelsAdminController {
  constructor(private readonly control: ChannelControl) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Every upstream channel: settings, in-flight tasks, breaker, recent creates and errors' })
  @ApiOkResponse({ type: ChannelListResponse })
  async list(): Promise<ChannelListResponse> {
    return { data: (await this.control.list()).map(present) };
  }

  /** Costs nothing at the vendor: the query names a task that does not exist. */
  @Post(':id/check')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({ summary: "Check a channel's credential with a query the vendor does not charge for" })
  @TakesEmptyBody()
  @ApiOkResponse({ type: ChannelCheckResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.channelNotFound)
  async check(@Param('id') id: string): Promise<ChannelCheckResponse> {
    const result = await this.control.checkCredential(id);
    if (!result) throw GatewayError.notFound('Channel');
    return {
      channel_id: id,
      credential: result.credential,
      accepted: result.credential === 'unknown' ? null : result.credential === 'accepted',
      http_status: result.httpStatus,
      code: result.code,
      message: result.message,
      latency_ms: result.latencyMs,
      checked_at: new Date().toISOString(),
    };
  }

  /** An operator may turn a channel on or off; its weight and priority are an admin's. */
  @Patch(':id')
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Enable, disable, re-weight or re-tier a channel at run time (every instance within a second)',
  })
  @ApiOkResponse({ type: ChannelResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.channelNotFound)
  async update(
    @Param('id') id: string,
    @Body() body: UpdateChannelDto,
    @Caller() origin: ChangeOrigin,
  ): Promise<ChannelResponse> {
    if (body.weight !== undefined) requireRole(origin.actor.role, 'admin', 'weight');
    if (body.priority !== undefined) requireRole(origin.actor.role, 'admin', 'priority');
    const state = await this.control.update(id, body, origin);
    if (!state) throw GatewayError.notFound('Channel');
    return present(state);
  }
}

function present(state: ChannelState): ChannelResponse {
  const { figures } = state;
  const counts = (c: CallCounts): ChannelCallCountsResponse => ({ creates: c.creates, errors: c.errors });
  return {
    id: state.id,
    family: state.family,
    enabled: state.enabled,
    weight: state.weight,
    priority: state.priority,
    models: state.models,
    max_in_flight: state.maxInFlight,
    in_flight: state.inFlight,
    breaker: state.breaker,
    cooling_down_until: iso(state.coolingDownUntil),
    last_minute: counts(figures.lastMinute),
    last_hour: counts(figures.lastHour),
    latency_ms: figures.latencyMs,
    last_error: figures.lastError ? { at: iso(figures.lastError.at)!, message: figures.lastError.message } : null,
    healthy: state.unhealthy === null,
    unhealthy_reason: state.unhealthy?.reason ?? null,
    unhealthy_since: iso(state.unhealthy?.since ?? null),
  };
}
