import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import {
  ACTOR_ID_PATTERN,
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  AuditAction,
  AuditTargetType,
} from '../../core/audit/audit.types';
import { OPERATOR_ROLES } from '../../core/operators/operator-roles';
import { AccountIdFilter, TimeRangeQueryDto, blankAsAbsent } from '../reads/reads.dto';

/** `GET /admin/v1/audit`: newest first, filtered by who, what, on what and when. */
export class AuditQueryDto extends TimeRangeQueryDto {
  @ApiPropertyOptional({ description: 'Operator ID (`op_…`; `bootstrap` for ADMIN_TOKEN, `system` for the gateway)' })
  @Transform(blankAsAbsent)
  @IsOptional()
  @Matches(ACTOR_ID_PATTERN, { message: '$property must be an operator ID (op_…), bootstrap or system' })
  @Length(1, 64)
  @IsString()
  actor?: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @Transform(blankAsAbsent)
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: AuditAction;

  @ApiPropertyOptional({ enum: AUDIT_TARGET_TYPES })
  @Transform(blankAsAbsent)
  @IsOptional()
  @IsIn(AUDIT_TARGET_TYPES)
  target_type?: AuditTargetType;

  @ApiPropertyOptional({ example: 'acct_01jd4x8q2m7c5v9b3n6k0t1r2s' })
  @Transform(blankAsAbsent)
  @IsOptional()
  @Length(1, 128)
  @IsString()
  target_id?: string;

  /** Everything about one account: the account's own changes and its keys'. */
  @AccountIdFilter() account_id?: string;

  @ApiPropertyOptional({ enum: ['json', 'csv'], description: 'csv: every matching entry from the cursor on' })
  @Transform(blankAsAbsent)
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}

export class AuditActorResponse {
  @ApiProperty({ example: 'op_01jd4z5q7v3m0r9s8t6w2x1y0z' }) id: string;
  @ApiProperty({ example: 'Dana (support)' }) name: string;
  @ApiProperty({ enum: OPERATOR_ROLES }) role: string;
}

export class AuditTargetResponse {
  @ApiProperty({ example: 'key' }) type: string;
  @ApiProperty({ example: 'key_01jd4z5q7v3m0r9s8t6w2x1y0z' }) id: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'acct_01jd4x8q2m7c5v9b3n6k0t1r2s',
    description: 'The account the target is or belongs to',
  })
  account_id: string | null;
}

export class AuditEntryResponse {
  @ApiProperty({ example: 'aud_01jd4z5q7v3m0r9s8t6w2x1y0z' }) id: string;
  @ApiProperty({ description: 'Position in the hash chain' }) seq: number;
  @ApiProperty({ example: '2026-11-02T10:00:00.000Z' }) at: string;
  @ApiProperty({ type: AuditActorResponse }) actor: AuditActorResponse;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action: string;
  @ApiProperty({ type: AuditTargetResponse }) target: AuditTargetResponse;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The target before the change; secrets as ***',
  })
  before: unknown;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The target after the change; secrets as ***',
  })
  after: unknown;
  @ApiProperty({ type: String, nullable: true }) request_id: string | null;
  @ApiProperty({ type: String, nullable: true }) ip: string | null;
}

export class AuditPageResponse {
  @ApiProperty({ type: [AuditEntryResponse] }) items: AuditEntryResponse[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}
