import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Typed answers of the operator API, for `/docs`; the presenters build objects of these shapes. Times are ISO 8601. */
export class ApiKeyResponse {
  @ApiProperty({ example: 'key_01jd4z5q7v3m0r9s8t6w2x1y0z' }) id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ description: 'The first characters of the secret, to recognise it' }) prefix: string;
  @ApiProperty({ type: [String], nullable: true, description: 'Models the key is restricted to; null: every model' })
  models: string[] | null;
  @ApiProperty({ type: String, nullable: true }) created_at: string | null;
  @ApiProperty({ type: String, nullable: true }) last_used_at: string | null;
  @ApiProperty({ type: String, nullable: true }) expires_at: string | null;
  @ApiProperty({ type: String, nullable: true }) revoked_at: string | null;
}

/** A key just issued: the secret is in this answer only. */
export class IssuedKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The secret API key, shown once' }) key: string;
}

export class ModelGrantResponse {
  @ApiProperty({ example: 'wx2.7-r2v' }) model: string;
  @ApiProperty({ type: [String], example: ['reference2video'] }) capabilities: string[];
}

export class AccountResponse {
  @ApiProperty({ example: 'acct_01jd4z5q7v3m0r9s8t6w2x1y0z' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Available balance in price units (credits - charges - open holds)' }) balance: number;
  @ApiProperty({ description: 'Open holds in price units' }) held: number;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ type: Number, nullable: true }) rate_limit_rpm: number | null;
  @ApiProperty({ type: Number, nullable: true }) max_concurrent_tasks: number | null;
  @ApiProperty() in_flight_tasks: number;
  @ApiPropertyOptional({ description: 'Signs the client callbacks of this account; not shown to a viewer' })
  webhook_secret?: string;
  @ApiProperty({ type: [ModelGrantResponse] }) models: ModelGrantResponse[];
  @ApiProperty({ type: [ApiKeyResponse], description: 'Keys by prefix; never their secrets' }) keys: ApiKeyResponse[];
  @ApiProperty({ type: String, nullable: true }) created_at: string | null;
  @ApiProperty({ type: String, nullable: true }) updated_at: string | null;
}

export class CallbackDeliveryResponse {
  @ApiProperty({ description: 'The `webhook-id` header the receiver saw' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({
    enum: ['pending', 'delivered', 'failed'],
    description: '`pending`: retried at `next_attempt_at`; `failed`: gave up after `max_attempts`',
  })
  status: string;
  @ApiProperty() attempts: number;
  @ApiProperty() max_attempts: number;
  @ApiProperty({ type: String, nullable: true }) last_error: string | null;
  @ApiProperty({ type: String, nullable: true }) next_attempt_at: string | null;
  @ApiProperty({ type: String, nullable: true }) created_at: string | null;
  @ApiProperty({ type: String, nullable: true }) updated_at: string | null;
}

export class TaskCallbacksResponse {
  @ApiProperty() task_id: string;
  @ApiProperty() account_id: string;
  @ApiProperty({ type: String, nullable: true }) callback_url: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The task's trace (its creating request's), to find in the tracing backend; null if tracing was off",
  })
  trace_id: string | null;
  @ApiProperty({ type: [CallbackDeliveryResponse] }) deliveries: CallbackDeliveryResponse[];
}

export class UsageRowResponse {
  @ApiProperty() id: string;
  @ApiProperty() task_id: string;
  @ApiProperty() account_id: string;
  @ApiProperty() model: string;
  @ApiProperty() action: string;
  @ApiProperty({ description: 'Charged amount in price units' }) amount: number;
  @ApiProperty() price_version: number;
  @ApiProperty({ type: Object, description: 'The billable facts the amount was priced from' })
  usage: Record<string, unknown>;
  @ApiProperty() created_at: string;
}

export class UsagePageResponse {
  @ApiProperty({ type: [UsageRowResponse] }) items: UsageRowResponse[];
  @ApiProperty() total: number;
}

export class LedgerMismatchResponse {
  @ApiProperty() account_id: string;
  @ApiProperty({ enum: ['balance', 'held'] }) field: 'balance' | 'held';
  @ApiProperty() stored: number;
  @ApiProperty() expected: number;
}

export class LedgerVerificationResponse {
  @ApiProperty() ok: boolean;
  @ApiProperty() accounts_checked: number;
  @ApiProperty({ type: [LedgerMismatchResponse] }) mismatches: LedgerMismatchResponse[];
}
