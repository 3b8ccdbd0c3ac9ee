import { Inject, Injectable } from '@nestjs/common';
import { AccountEntity } from '../../core/accounts/entities/account.entity';
import { resultUrl } from '../../core/result-keeping/result-url';
import { trialAudioSlot } from '../../core/result-keeping/result-slots';
import { ResultFilesRepository } from '../../core/result-keeping/result-files.repository';
import { CallbackOutboxRepository } from '../../core/tasks/client-callbacks-out/callback-outbox.repository';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { isDeleted } from '../../core/tasks/task-queries.service';
import { AppConfig } from '../../platform/config/app-config';
import { GatewayError } from '../../platform/errors';
import { traceIdOf } from '../../platform/telemetry/spans';
import { presentResultFile } from '../../result-serving/results-admin.controller';
import { presentKey } from '../account.presenter';
import { presentDelivery } from '../callbacks-admin.controller';
import { toCsv } from '../csv';
import { AdminReadsRepository, DailyUsageFilter } from './admin-reads.repository';
import { cursorPage } from './cursor';
import { redactRequest } from './request-redaction';
import {
  AccountKeysResponse,
  AccountPageResponse,
  AccountSummaryResponse,
  DailyUsageRowResponse,
  TaskDetailResponse,
  TaskPageResponse,
  TaskSummaryResponse,
  TimelineEventResponse,
} from './reads.responses';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export interface AccountListQuery {
  q?: string;
  cursor?: string;
  limit: number;
}

export interface TaskListQuery {
  accountId?: string;
  family?: string;
  model?: string;
  status?: string;
  fromMs?: number;
  toMs?: number;
  externalTaskId?: string;
  upstreamTaskId?: string;
  cursor?: string;
  limit: number;
}

/** The operator console's reads: account search, keys, task lists and one task's whole story, usage per day. */
@Injectable()
export class AdminReadsService {
  constructor(
    private readonly reads: AdminReadsRepository,
    private readonly outbox: CallbackOutboxRepository,
    private readonly files: ResultFilesRepository,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  accounts(query: AccountListQuery): Promise<AccountPageResponse> {
    return cursorPage(
      query,
      (after, take) => this.reads.searchAccounts({ q: query.q, after, take }),
      presentAccountSummary,
    );
  }

  async keys(accountId: string): Promise<AccountKeysResponse> {
    if (!(await this.reads.accountById(accountId))) throw GatewayError.notFound('Account');
    const keys = await this.reads.keysOfAccount(accountId);
    return { account_id: accountId, items: keys.map(presentKey) };
  }

  async tasks(query: TaskListQuery): Promise<TaskPageResponse> {
    checkRange(query.fromMs, query.toMs);
    const { cursor: _cursor, limit: _limit, status, ...filters } = query;
    const page = await cursorPage(
      query,
      (after, take) => this.reads.searchTasks({ ...filters, phase: status, after, take }),
      (task) => presentTaskSummary(task, null),
    );
    const names = await this.reads.accountNames(page.items.map((task) => task.account_id));
    return {
      ...page,
      items: page.items.map((task) => ({ ...task, account_name: names.get(task.account_id) ?? null })),
    };
  }

  async task(taskId: string): Promise<TaskDetailResponse> {
    const task = await this.reads.taskById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    const [account, key, ledger, deliveries, files] = await Promise.all([
      this.reads.accountById(task.accountId),
      task.apiKeyId ? this.reads.keyById(task.apiKeyId) : Promise.resolve(null),
      this.reads.ledgerOfTask(task.id),
      this.outbox.listForTask(task.id),
      this.files.forTask(task.id),
    ]);
    const events: Array<{ at: number; event: string; detail: string | null }> = [
      { at: task.createdAt, event: 'created', detail: `${task.family} ${task.action} on ${task.channelId}` },
      ...ledger.map((e) => ({ at: e.createdAt, event: e.kind, detail: String(e.amount) })),
      ...deliveries.map((d) => ({ at: d.updatedAt, event: `callback_${d.status}`, detail: d.lastError })),
      ...files
        .filter((f) => f.storedAt !== null)
        .map((f) => ({ at: f.storedAt as number, event: 'result_stored', detail: f.slot })),
    ];
    if (task.finishedAt !== null)
      events.push({ at: task.finishedAt, event: 'finished', detail: task.failureCode ?? task.phase });
    if (isDeleted(task)) events.push({ at: task.deletedAt as number, event: 'deleted', detail: null });
    return {
      ...presentTaskSummary(task, account?.name ?? null),
      key_prefix: key?.prefix ?? null,
      callback_url: task.callbackUrl,
      trace_id: traceIdOf(task.traceContext),
      upstream_request: redactRequest(task.requestSnapshot, task.callbackToken) as Record<string, unknown>,
      timeline: timeline(events),
      ledger: ledger.map((e) => ({
        id: e.id,
        kind: e.kind,
        amount: e.amount,
        price_version: e.priceVersion,
        reason: e.reason,
        created_at: new Date(e.createdAt).toISOString(),
      })),
      callbacks: deliveries.map((d) => presentDelivery(d, this.config.CALLBACK_MAX_ATTEMPTS)),
      result_files: files.map(presentResultFile),
      // A deleted task's files are gone: no URL to give.
      videos: isDeleted(task)
        ? []
        : (task.result?.videos ?? [])
            .map((video, i) => ({ slot: `v${i}`, url: resultUrl(task, `v${i}`, video.url) }))
            .filter((video) => video.url !== ''),
      voices: isDeleted(task)
        ? []
        : (task.result?.voices ?? []).map((voice, i) => ({
            voice_id: voice.voiceId,
            voice_name: voice.voiceName ?? null,
            trial_url: voice.trialUrl ? resultUrl(task, trialAudioSlot(i), voice.trialUrl) || null : null,
          })),
    };
  }

  async dailyUsage(filter: DailyUsageFilter): Promise<DailyUsageRowResponse[]> {
    checkRange(filter.fromMs, filter.toMs);
    const rows = await this.reads.dailyUsage(filter);
    return rows.map((r) => ({
      day: new Date(r.dayMs).toISOString().slice(0, 10),
      model: r.model,
      tasks: r.tasks,
      amount: r.amount,
      operations: r.operations,
    }));
  }
}

/** `operations` last: a column added to the export, so readers by position keep their columns. */
export const DAILY_USAGE_COLUMNS = ['day', 'model', 'tasks', 'amount', 'operations'] as const;

export function dailyUsageCsv(rows: DailyUsageRowResponse[]): string {
  return toCsv(
    DAILY_USAGE_COLUMNS,
    rows.map((row) => DAILY_USAGE_COLUMNS.map((column) => row[column])),
  );
}

function checkRange(fromMs: number | undefined, toMs: number | undefined): void {
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs)
    throw GatewayError.invalid('to must not be earlier than from.', 'to');
}

function presentAccountSummary(account: AccountEntity): AccountSummaryResponse {
  return {
    id: account.id,
    name: account.name,
    balance: account.balance,
    held: account.held,
    disabled: account.disabled,
    in_flight_tasks: account.inFlightTasks,
    created_at: iso(account.createdAt),
  };
}

function presentTaskSummary(task: TaskEntity, accountName: string | null): TaskSummaryResponse {
  return {
    id: task.id,
    account_id: task.accountId,
    account_name: accountName,
    api_key_id: task.apiKeyId,
    family: task.family,
    action: task.action,
    model: task.model,
    channel_id: task.channelId,
    upstream_task_id: task.upstreamTaskId,
    status: task.phase,
    native_status: task.nativeStatus,
    progress: task.progress,
    external_task_id: task.externalTaskId,
    failure_code: task.failureCode,
    failure_reason: task.failureReason,
    billing_state: task.billingState,
    estimated_charge: task.estimatedCharge,
    final_charge: task.finalCharge,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
    finished_at: iso(task.finishedAt),
    deleted_at: iso(task.deletedAt),
  };
}

/**
 * Status changes are not recorded one by one, so the timeline is derived from the times that are:
 * creation, the ledger's hold/charge/release, callback deliveries, kept files and the finish.
 */
function timeline(events: Array<{ at: number; event: string; detail: string | null }>): TimelineEventResponse[] {
  return events
    .map((e, order) => ({ ...e, order }))
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map((e) => ({ at: new Date(e.at).toISOString(), event: e.event, detail: e.detail }));
}
