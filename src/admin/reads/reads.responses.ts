import { ApiProperty } from '@nestjs/swagger';
import { ApiKeyResponse, CallbackDeliveryResponse } from '../admin.responses';
import { ResultFileResponse } from '../../result-serving/results-admin.controller';

/** Typed answers of the console's reads, for `/docs`. Times are ISO 8601; amounts in price units. */
export class AccountSummaryResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() balance: number;
  @ApiProperty() held: number;
  @ApiProperty() disabled: boolean;
  @ApiProperty() in_flight_tasks: number;
  @ApiProperty({ type: String, nullable: true }) created_at: string | null;
}

export class AccountPageResponse {
  @ApiProperty({ type: [AccountSummaryResponse] }) items: AccountSummaryResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last' })
  next_cursor: string | null;
}

export class AccountKeysResponse {
  @ApiProperty() account_id: string;
  @ApiProperty({ type: [ApiKeyResponse], description: 'Newest first; never their secrets' }) items: ApiKeyResponse[];
}

export class TaskSummaryResponse {
  @ApiProperty() id: string;
  @ApiProperty() account_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The account's name (null: the account is gone)" })
  account_name: string | null;
  @ApiProperty({ type: String, nullable: true }) api_key_id: string | null;
  @ApiProperty() family: string;
  @ApiProperty() action: string;
  @ApiProperty() model: string;
  @ApiProperty() channel_id: string;
  @ApiProperty({ type: String, nullable: true }) upstream_task_id: string | null;
  @ApiProperty({ enum: ['submitting', 'active', 'succeeded', 'failed', 'cancelled', 'rejected'] }) status: string;
  @ApiProperty({ description: "The family's own status word as last seen" }) native_status: string;
  @ApiProperty() progress: number;
  @ApiProperty({ type: String, nullable: true }) external_task_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed or was rejected: the code' })
  failure_code: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed or was rejected: in words' })
  failure_reason: string | null;
  @ApiProperty({ enum: ['held', 'settled', 'released'] }) billing_state: string;
  @ApiProperty() estimated_charge: number;
  @ApiProperty({ type: Number, nullable: true }) final_charge: number | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  @ApiProperty({ type: String, nullable: true }) finished_at: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When its owner deleted it: gone from every client route, its kept files deleted; kept here',
  })
  deleted_at: string | null;
}

export class TaskPageResponse {
  @ApiProperty({ type: [TaskSummaryResponse] }) items: TaskSummaryResponse[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class TimelineEventResponse {
  @ApiProperty() at: string;
  @ApiProperty({
    description:
      'created, submitted, hold, charge, release, callback_<status>, result_<status>, finished, deleted: derived from what is recorded',
  })
  event: string;
  @ApiProperty({ type: String, nullable: true }) detail: string | null;
}

export class LedgerEntryResponse {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['credit', 'debit', 'hold', 'release', 'charge'] }) kind: string;
  @ApiProperty() amount: number;
  @ApiProperty({ type: Number, nullable: true }) price_version: number | null;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiProperty() created_at: string;
}

export class ResultVideoResponse {
  @ApiProperty() slot: string;
  @ApiProperty({ description: "The URL a client is given for it (the gateway's signed URL when results are kept)" })
  url: string;
}

export class ResultVoiceResponse {
  @ApiProperty() voice_id: string;
  @ApiProperty({ type: String, nullable: true }) voice_name: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Its trial audio, as a client is given it' })
  trial_url: string | null;
}

export class TaskDetailResponse extends TaskSummaryResponse {
  @ApiProperty({ type: String, nullable: true }) key_prefix: string | null;
  @ApiProperty({ type: String, nullable: true }) callback_url: string | null;
  @ApiProperty({ type: String, nullable: true }) trace_id: string | null;
  @ApiProperty({
    type: Object,
    description: 'The request as sent upstream: Base64 payloads as placeholders, credentials and tokens masked',
  })
  upstream_request: Record<string, unknown>;
  @ApiProperty({ type: [TimelineEventResponse] }) timeline: TimelineEventResponse[];
  @ApiProperty({ type: [LedgerEntryResponse], description: 'Hold, charge and release of the task' })
  ledger: LedgerEntryResponse[];
  @ApiProperty({ type: [CallbackDeliveryResponse] }) callbacks: CallbackDeliveryResponse[];
  @ApiProperty({ type: [ResultFileResponse] }) result_files: ResultFileResponse[];
  @ApiProperty({ type: [ResultVideoResponse], description: 'None once the task is deleted' })
  videos: ResultVideoResponse[];
  @ApiProperty({ type: [ResultVoiceResponse], description: 'The voices a voice task made; none once deleted' })
  voices: ResultVoiceResponse[];
}

export class DailyUsageRowResponse {
  @ApiProperty({ example: '2026-11-25' }) day: string;
  @ApiProperty() model: string;
  @ApiProperty({ description: 'Charged tasks' }) tasks: number;
  @ApiProperty({ description: 'Charged amount in price units (tasks and operations)' }) amount: number;
  @ApiProperty({ description: 'Charged operations without a task (kl session operations)' })
  operations: number;
}

export class DailyUsageResponse {
  @ApiProperty({ type: [DailyUsageRowResponse] }) items: DailyUsageRowResponse[];
}
