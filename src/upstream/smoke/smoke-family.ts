import type { UpstreamClients } from '../upstream-clients';
import {
  UpstreamChannel,
  UpstreamRejectedError,
  UpstreamTaskNotFoundError,
  UpstreamTaskSnapshot,
  UpstreamUnavailableError,
} from '../upstream.types';
import { applyModelMap } from '../http/model-map';
import { checkFields, shown } from './field-checks';
import type { SmokePlan, SentTask } from './smoke-plans';
import type { SmokeRow, Verdict } from './smoke-types';

/** What following one task needs from outside: the clients, the clock, and how to fetch a result file. */
export interface SmokeDeps {
  readonly clients: Pick<UpstreamClients, 'clientFor'>;
  readonly env: Record<string, string | undefined>;
  readonly pollMs: number;
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** GETs the first bytes of a result file; resolves with the HTTP status and content type. */
  readonly probeUrl: (url: string) => Promise<{ status: number; contentType: string }>;
  /** One progress line (stderr), as the task moves. */
  readonly progress: (line: string) => void;
}

/**
 * Creates the family's cheapest task on the channel through the gateway's own client, follows it
 * to its end, and reports every field against what the gateway expects.
 */
export async function smokeFamily(plan: SmokePlan, channel: UpstreamChannel, deps: SmokeDeps): Promise<SmokeRow[]> {
  const rows: SmokeRow[] = [];
  const row = (step: string, fieldName: string, seen: string, expected: string, verdict: Verdict) =>
    rows.push({ family: plan.family, step, field: fieldName, seen, expected, verdict });
  row('channel', channel.id, channel.baseUrl, plan.description, 'info');
  if (plan.checkAuth) rows.push(...(await plan.checkAuth(channel, deps.clients.clientFor(plan.family))));

  const planned = plan.body(deps.env);
  if ('skip' in planned) {
    row('create', '(not sent)', 'skipped', planned.skip, 'info');
    return rows;
  }
  const wire = applyModelMap(planned.body, channel);
  const model = (wire.model ?? wire.model_name) as string | undefined;
  if (model !== undefined)
    row(
      'create',
      'model',
      `${shown(planned.body.model ?? planned.body.model_name)} -> ${shown(model)}`,
      'the vendor’s name (channel model map)',
      'info',
    );
  const sent: SentTask = { reference: plan.lookupByReference ? `gw-smoke-${deps.now()}` : undefined, model };

  const client = deps.clients.clientFor(plan.family);
  let created;
  try {
    created = await client.submit(channel, plan.operation, planned.body, { clientReference: sent.reference });
  } catch (error) {
    row('create', 'answer', describeError(error), 'the task accepted', 'MISMATCH');
    return rows;
  }
  deps.progress(`${plan.family}: created task ${created.upstreamTaskId} (${created.snapshot.nativeStatus})`);
  rows.push(...checkFields(plan.family, 'create', created.snapshot.raw, plan.created(sent)));

  if (sent.reference) rows.push(...(await checkLookup(plan, channel, sent.reference, created.upstreamTaskId, deps)));

  const followed = await follow(plan, channel, created.upstreamTaskId, created.snapshot, deps);
  rows.push(...followed.rows);
  const last = followed.snapshot;
  if (!last) return rows;
  if (last.state === 'failed') {
    row(
      'result',
      'terminal state',
      `failed: ${shown(last.failureReason ?? last.failureCode)}`,
      'succeeded (a failure is shown, its fields checked)',
      'info',
    );
    rows.push(...checkFields(plan.family, 'result', last.raw, plan.failed));
    return rows;
  }
  rows.push(...checkFields(plan.family, 'result', last.raw, plan.succeeded(sent)));
  rows.push(...checkFields(plan.family, 'gateway reads', last, plan.resultFields(last)));
  for (const url of plan.resultUrls(last)) rows.push(await probe(plan, url, deps));
  return rows;
}

/** Polls until the task ends or the time is up, recording every status word seen. */
async function follow(
  plan: SmokePlan,
  channel: UpstreamChannel,
  taskId: string,
  first: UpstreamTaskSnapshot,
  deps: SmokeDeps,
): Promise<{ rows: SmokeRow[]; snapshot?: UpstreamTaskSnapshot }> {
  const words: string[] = [first.nativeStatus];
  const undocumented = new Set<string>();
  if (first.state === 'unknown') undocumented.add(first.nativeStatus);
  const rows: SmokeRow[] = [];
  const deadline = deps.now() + deps.timeoutMs;
  let snapshot: UpstreamTaskSnapshot | undefined;
  while (deps.now() < deadline) {
    await deps.sleep(deps.pollMs);
    try {
      snapshot = await deps.clients.clientFor(plan.family).fetch(channel, plan.operation, taskId);
    } catch (error) {
      // An outage is worth another try; any other answer is the contract broken.
      if (error instanceof UpstreamUnavailableError) continue;
      rows.push({
        family: plan.family,
        step: 'poll',
        field: 'answer',
        seen: describeError(error),
        expected: 'the task’s status',
        verdict: 'MISMATCH',
      });
      return { rows };
    }
    if (words[words.length - 1] !== snapshot.nativeStatus) {
      words.push(snapshot.nativeStatus);
      deps.progress(`${plan.family}: ${taskId} is ${snapshot.nativeStatus}`);
    }
    if (snapshot.state === 'unknown') undocumented.add(snapshot.nativeStatus);
    if (snapshot.state === 'succeeded' || snapshot.state === 'failed') break;
  }
  const verdict: Verdict = undocumented.size === 0 ? 'ok' : 'MISMATCH';
  const unlisted = undocumented.size === 0 ? '' : ` (not in the status table: ${[...undocumented].join(', ')})`;
  rows.push({
    family: plan.family,
    step: 'poll',
    field: 'status words',
    seen: `${words.join(' -> ')}${unlisted}`,
    expected: 'only documented status words',
    verdict,
  });
  if (!snapshot || (snapshot.state !== 'succeeded' && snapshot.state !== 'failed')) {
    rows.push({
      family: plan.family,
      step: 'poll',
      field: 'terminal state',
      seen: snapshot?.nativeStatus ?? first.nativeStatus,
      expected: `an end within ${Math.round(deps.timeoutMs / 1000)} s`,
      verdict: 'MISMATCH',
    });
    return { rows };
  }
  return { rows, snapshot };
}

/** The task is found again by the reference we sent (how unconfirmed creations are recovered). */
async function checkLookup(
  plan: SmokePlan,
  channel: UpstreamChannel,
  reference: string,
  taskId: string,
  deps: SmokeDeps,
): Promise<SmokeRow[]> {
  const base = {
    family: plan.family,
    step: 'lookup',
    field: `GET by ${plan.referenceField ?? 'reference'} ${reference}`,
    expected: `task ${taskId}`,
  };
  try {
    const found = await deps.clients.clientFor(plan.family).fetch(channel, plan.operation, reference);
    return [
      {
        ...base,
        seen: `task ${found.upstreamTaskId ?? '(no task_id)'}`,
        verdict: found.upstreamTaskId === taskId ? 'ok' : 'MISMATCH',
      },
    ];
  } catch (error) {
    return [{ ...base, seen: describeError(error), verdict: 'MISMATCH' }];
  }
}

async function probe(plan: SmokePlan, url: string, deps: SmokeDeps): Promise<SmokeRow> {
  const base = { family: plan.family, step: 'result', field: `GET ${shown(url)}` };
  try {
    const { status, contentType } = await deps.probeUrl(url);
    const ok = (status === 200 || status === 206) && /^(video|audio)\//i.test(contentType);
    return {
      ...base,
      seen: `HTTP ${status} ${contentType || '(no content type)'}`,
      expected: 'HTTP 200/206 with a video or audio type',
      verdict: ok ? 'ok' : 'MISMATCH',
    };
  } catch (error) {
    return { ...base, seen: describeError(error), expected: 'a downloadable file', verdict: 'MISMATCH' };
  }
}

export function describeError(error: unknown): string {
  if (error instanceof UpstreamRejectedError)
    return `refused: HTTP ${error.httpStatus} ${String(error.nativeCode)}: ${error.message}`;
  if (error instanceof UpstreamTaskNotFoundError) return `${error.name}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
