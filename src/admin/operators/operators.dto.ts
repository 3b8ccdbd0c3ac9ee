import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NotBlank } from '../../families/common/text-rules';
import { IsBoolean, IsIn, IsString, Length } from 'class-validator';
import { OPERATOR_ROLES, OperatorRole } from '../../core/operators/operator-roles';
import { IsOmittable } from '../../platform/validation/is-omittable';

const ROLE_MESSAGE = { message: `$property must be one of: ${OPERATOR_ROLES.join(', ')}` };

export class CreateOperatorDto {
  @ApiProperty({ example: 'Dana (support)' }) @NotBlank() @Length(1, 200) @IsString() name: string;
  @ApiProperty({ enum: OPERATOR_ROLES, example: 'operator' }) @IsIn(OPERATOR_ROLES, ROLE_MESSAGE) role: OperatorRole;
}

export class UpdateOperatorDto {
  @ApiPropertyOptional({ enum: OPERATOR_ROLES }) @IsOmittable() @IsIn(OPERATOR_ROLES, ROLE_MESSAGE) role?: OperatorRole;
  @ApiPropertyOptional({ description: 'true: the token is refused (401) until enabled again' })
  @IsOmittable()
  @IsBoolean()
  disabled?: boolean;
}

export class OperatorResponse {
  @ApiProperty({ example: 'op_01jd4z5q7v3m0r9s8t6w2x1y0z' }) id: string;
  @ApiProperty({ example: 'Dana (support)' }) name: string;
  @ApiProperty({ enum: OPERATOR_ROLES }) role: OperatorRole;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ example: 'vgo_Xk2pQ9aB', description: 'The first characters of the token, to recognise it' })
  token_prefix: string;
  @ApiProperty() created_at: string;
}

/** An operator with the token just made: the token is in this answer only. */
export class IssuedOperatorResponse extends OperatorResponse {
  @ApiProperty({ description: 'The bearer token of the admin API, shown once' }) token: string;
}

export class OperatorListResponse {
  @ApiProperty({ type: [OperatorResponse], description: 'Oldest first' }) items: OperatorResponse[];
}

export class WhoAmIResponse {
  @ApiProperty({ example: 'op_01jd4z5q7v3m0r9s8t6w2x1y0z', description: '`bootstrap` for ADMIN_TOKEN' }) id: string;
  @ApiProperty({ example: 'Dana (support)' }) name: string;
  @ApiProperty({ enum: OPERATOR_ROLES }) role: OperatorRole;
}
