import { ApiProperty } from '@nestjs/swagger';

export class MeModelResponse {
  @ApiProperty({ example: 'vdq3' }) model: string;
  @ApiProperty({ example: 'vd' }) family: string;
  @ApiProperty({ type: [String], example: ['reference2video'] }) capabilities: string[];
}

export class MeUsageResponse {
  @ApiProperty({ description: 'Start of the current UTC month' }) since: string;
  @ApiProperty({ description: 'Charged tasks since then' }) tasks: number;
  @ApiProperty({ description: 'Charged amount since then, in price units (tasks and operations)' }) amount: number;
  @ApiProperty({ description: 'Charged operations without a task since then (kl session operations)' })
  operations: number;
}

/** What a key holder may know of its own account: never another account's, never a secret. */
export class MeResponse {
  @ApiProperty() account_id: string;
  @ApiProperty() account_name: string;
  @ApiProperty({ description: 'Available balance in price units' }) balance: number;
  @ApiProperty({ description: 'Held for tasks in flight, in price units' }) held: number;
  @ApiProperty({ description: 'The calling key, by its prefix' }) key_prefix: string;
  @ApiProperty({ type: [MeModelResponse], description: 'Models this key may use, and for what' })
  models: MeModelResponse[];
  @ApiProperty({ description: 'Requests per minute allowed to the account' }) rate_limit_rpm: number;
  @ApiProperty({ description: 'Tasks the account may have in flight at once' }) max_concurrent_tasks: number;
  @ApiProperty({ type: MeUsageResponse }) usage_this_month: MeUsageResponse;
}
