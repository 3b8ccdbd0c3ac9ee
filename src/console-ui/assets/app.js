// The operator console: Preact + htm (one vendor module, no build step). Every figure comes from the
// admin API; the admin token lives in sessionStorage for this tab only and travels as a Bearer header.
import {
  createContext,
  html,
  render,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from '/console/vendor/preact-htm.js';

const TOKEN_KEY = 'gateway.adminToken';
const PALETTE = ['#2456d6', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2'];
const TERMINAL = ['succeeded', 'failed', 'cancelled', 'rejected'];
/** Timeline events whose detail is an amount of money (units). */
const LEDGER_EVENTS = ['hold', 'charge', 'release', 'credit', 'debit'];
const PAGES = [
  ['overview', 'Overview'],
  ['tasks', 'Tasks'],
  ['accounts', 'Accounts'],
  ['usage', 'Usage'],
  ['prices', 'Prices'],
  ['channels', 'Channels'],
  ['audit', 'Audit'],
];
/** The operator roles, weakest first: each may do all a weaker one may (the API decides; the console only hides). */
const ROLES = ['viewer', 'operator', 'admin', 'owner'];
const AUDIT_ACTIONS = [
  'account.create',
  'account.update',
  'balance.adjust',
  'grant.update',
  'key.create',
  'key.revoke',
  'price.update',
  'channel.update',
  'task.callback_redeliver',
  'task.results_keep',
  'operator.create',
  'operator.update',
  'operator.token_rotate',
  'operator.sign_in',
  'task.cancel',
];

/** The signed-in operator `{id, name, role}` (GET /admin/v1/me). */
const Me = createContext(null);
/** `can(role)`: whether the signed-in operator's role reaches `role`. */
function useCan() {
  const me = useContext(Me);
  return (role) => Boolean(me) && ROLES.indexOf(me.role) >= ROLES.indexOf(role);
}

class ApiError extends Error {
  constructor(status, message, retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

let onSignedOut = () => {};

/** The CSRF token of a single sign-on session (its cookie is readable; the session's own is HttpOnly). */
const ssoCsrf = () => /(?:^|;\s*)gw_console_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? null;

async function api(path, { method = 'GET', body, accept = 'application/json', token } = {}) {
  const bearer = token ?? sessionStorage.getItem(TOKEN_KEY);
  const headers = { Accept: accept };
  // A typed token travels as a Bearer header; a single sign-on session rides on its cookie, and
  // every change it asks for carries the CSRF token.
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  else if (method !== 'GET' && ssoCsrf()) headers['X-CSRF-Token'] = ssoCsrf();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const payload = await res.json();
      message = payload?.error?.message ?? payload?.message ?? message;
    } catch {
      // not JSON: keep the status line
    }
    if (res.status === 401 && token === undefined) onSignedOut('Signed out: the admin token was refused.');
    throw new ApiError(res.status, message, res.headers.get('Retry-After'));
  }
  return accept === 'application/json' ? res.json() : res.text();
}

const query = (params) => {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
};
const fmtTime = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
const fmtNum = (n) => (n === null || n === undefined ? '—' : Number(n).toLocaleString());
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** The API counts money in integer units: 1 unit = 1 millicredit, 1 credit = 1000 units. */
const UNITS_PER_CREDIT = 1000;
/** An amount of units, shown in credits with the unit. */
const fmtCredits = (units) =>
  units === null || units === undefined
    ? '—'
    : `${(Number(units) / UNITS_PER_CREDIT).toLocaleString('en-US', { maximumFractionDigits: 3 })} ${
        Number(units) === UNITS_PER_CREDIT ? 'credit' : 'credits'
      }`;
/** Typed credits as integer units; null when not a number with at most three decimals (one unit). */
function creditsToUnits(text) {
  const typed = String(text).trim().replace(/,/g, '');
  if (!/^-?\d+(\.\d{1,3})?$/.test(typed)) return null;
  return Math.round(Number(typed) * UNITS_PER_CREDIT);
}

/** A code as words: `CreationPolicyViolation` -> `Creation policy violation`. */
const codeInWords = (code) => {
  const words = code
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
/** Why a task failed, in words: the upstream's message and its code, never the code twice. */
function failureText(code, reason) {
  if (!code && !reason) return null;
  if (reason && reason !== code) return code ? `${reason} (${code})` : reason;
  return `${codeInWords(code)} (${code}); the upstream sent no message.`;
}

/** Fetches `path` as CSV and saves it as `filename`. */
async function downloadCsv(path, filename) {
  const csv = await api(path, { accept: 'text/csv' });
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Re-runs `load` now and every `ms` while mounted (and while `active`); returns [data, error, reload]. */
function usePolling(load, ms, deps, active = true) {
  const [state, setState] = useState({ data: null, error: null });
  const reload = useCallback(() => {
    load().then(
      (data) => setState({ data, error: null }),
      (error) => setState((s) => ({ data: s.data, error })),
    );
  }, deps);
  useEffect(() => {
    reload();
    if (!ms || !active) return undefined;
    const timer = setInterval(reload, ms);
    return () => clearInterval(timer);
  }, [reload, ms, active]);
  return [state.data, state.error, reload];
}

function useRoute() {
  const parse = () => {
    const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
    const [page, id] = (path || 'overview').split('/');
    return [page, id, Object.fromEntries(new URLSearchParams(search ?? ''))];
  };
  const [route, setRoute] = useState(parse());
  useEffect(() => {
    const on = () => setRoute(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

const Status = ({ value }) => html`<span class=${`status status-${value}`}>${value}</span>`;
const ErrorBox = ({ error }) =>
  error ? html`<p class="error" role="alert">${error.message ?? String(error)}</p>` : null;

/** The reason a single sign-on came back refused (`?sso_error=`), taken off the address once read. */
function takeSsoError() {
  const params = new URLSearchParams(location.search);
  const why = params.get('sso_error');
  if (why !== null) history.replaceState(null, '', location.pathname + location.hash);
  return why;
}

function SignIn({ onSignedIn, reason }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(reason ?? takeSsoError());
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState(false);
  useEffect(() => {
    fetch('/console/sso/status')
      .then((res) => (res.ok ? res.json() : { enabled: false }))
      .then((status) => setSso(Boolean(status.enabled)))
      .catch(() => setSso(false));
  }, []);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/admin/v1/me', { token });
      sessionStorage.setItem(TOKEN_KEY, token);
      onSignedIn();
    } catch (err) {
      setError(
        err.status === 401
          ? 'That admin token was not accepted.'
          : err.status === 429
            ? `Too many failed attempts; retry in ${err.retryAfter ?? 'a few'} seconds.`
            : err.message,
      );
    } finally {
      setBusy(false);
    }
  };
  return html`<main>
    <section class="signin" aria-labelledby="signin-title">
      <h1 id="signin-title">Gateway console</h1>
      <form onSubmit=${submit}>
        <label for="admin-token"
          >Admin token
          <input
            id="admin-token"
            name="token"
            type="password"
            autocomplete="current-password"
            required
            value=${token}
            onInput=${(e) => setToken(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled=${busy || !token}>Sign in</button>
        ${error ? html`<p class="error" role="alert" data-testid="signin-error">${error}</p>` : null}
        <p class="muted">The token stays in this browser tab (sessionStorage) and is sent as a Bearer header only.</p>
      </form>
      ${
        sso
          ? html`<p class="sso">
              <a class="button" href="/console/sso/login" data-testid="sso-sign-in">Sign in with single sign-on</a>
            </p>`
          : null
      }
    </section>
  </main>`;
}

function Overview() {
  const [data, error] = usePolling(
    async () => {
      const since = new Date(Date.now() - 10 * 60_000).toISOString();
      const [active, submitting, recent, latest, spend, channels] = await Promise.all([
        api(`/admin/v1/tasks${query({ status: 'active', limit: 200 })}`),
        api(`/admin/v1/tasks${query({ status: 'submitting', limit: 200 })}`),
        api(`/admin/v1/tasks${query({ from: since, limit: 200 })}`),
        api(`/admin/v1/tasks${query({ limit: 200 })}`),
        api(`/admin/v1/usage/daily${query({ from: todayUtc() })}`),
        api('/admin/v1/channels').catch(() => null),
      ]);
      const finished = latest.items.filter((t) => TERMINAL.includes(t.status));
      const ok = finished.filter((t) => t.status === 'succeeded').length;
      return {
        inFlight: active.items.length + submitting.items.length,
        perMinute: recent.items.length / 10,
        successRate: finished.length ? Math.round((ok / finished.length) * 100) : null,
        spend: spend.items.reduce((sum, r) => sum + r.amount, 0),
        channels: channels?.data ?? null,
      };
    },
    5000,
    [],
  );
  const card = (label, value, id) =>
    html`<div class="card">
      <div class="label" id=${id}>${label}</div>
      <div class="value" aria-labelledby=${id}>${value}</div>
    </div>`;
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Overview</h1>
    <${ErrorBox} error=${error} />
    ${
      data
        ? html`<div class="cards">
              ${card('Tasks in flight', fmtNum(data.inFlight), 'c-inflight')}
              ${card('Tasks per minute (10 min)', data.perMinute.toFixed(1), 'c-rate')}
              ${card('Success rate (last 200)', data.successRate === null ? '—' : `${data.successRate}%`, 'c-success')}
              ${card('Spend today (UTC)', fmtCredits(data.spend), 'c-spend')}
            </div>
            <h2>Channels</h2>
            ${
              data.channels
                ? html`<div class="scroll">
                    <table>
                      <caption class="sr-only">
                        Upstream channels' health
                      </caption>
                      <thead>
                        <tr>
                          <th>Channel</th>
                          <th>Family</th>
                          <th>Enabled</th>
                          <th>Breaker</th>
                          <th>In flight</th>
                          <th>Errors (1 h)</th>
                          <th>p50 / p99 ms</th>
                          <th>Last error</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${data.channels.map(
                          (c) =>
                            html`<tr>
                              <td>${c.id}</td>
                              <td>${c.family}</td>
                              <td>${c.enabled ? 'yes' : 'no'}</td>
                              <td><${Status} value=${c.breaker} /></td>
                              <td>${c.in_flight}</td>
                              <td>${c.last_hour?.errors ?? 0} / ${c.last_hour?.creates ?? 0}</td>
                              <td>${c.latency_ms ? `${c.latency_ms.p50} / ${c.latency_ms.p99}` : '—'}</td>
                              <td class="wrap">
                                ${c.last_error ? `${fmtTime(c.last_error.at)}: ${c.last_error.message}` : '—'}
                              </td>
                            </tr>`,
                        )}
                      </tbody>
                    </table>
                  </div>`
                : html`<p class="muted">Channel health is not available from this gateway.</p>`
            }`
        : html`<p class="muted">Loading…</p>`
    }
  </section>`;
}

function TaskTable({ items }) {
  return html`<div class="scroll">
    <table>
      <caption class="sr-only">
        Tasks
      </caption>
      <thead>
        <tr>
          <th>Task</th>
          <th>Status</th>
          <th>Progress</th>
          <th>Model</th>
          <th>Account</th>
          <th>Failure</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        ${items.map(
          (t) =>
            html`<tr data-task-id=${t.id}>
              <td><a href=${`#/tasks/${t.id}`}>${t.id}</a></td>
              <td data-testid="task-status"><${Status} value=${t.status} /></td>
              <td>${t.progress}%</td>
              <td>${t.model}</td>
              <td>
                <a href=${`#/accounts/${t.account_id}`} title=${t.account_id}>${t.account_name ?? t.account_id}</a>
              </td>
              <td class="wrap" data-testid="task-failure">${failureText(t.failure_code, t.failure_reason) ?? '—'}</td>
              <td>${fmtTime(t.created_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** The task list's filters, as the admin API names them; they live in the page's address. */
const TASK_FILTERS = ['account_id', 'family', 'model', 'status', 'external_task_id', 'upstream_task_id'];
const TASK_STATUSES = ['submitting', 'active', 'succeeded', 'failed', 'cancelled', 'rejected'];

/** The model catalogue (GET /admin/v1/models), read once per page; null until it arrives or when refused. */
function useCatalogue() {
  const [data] = usePolling(() => api('/admin/v1/models'), 0, []);
  return data?.data ?? null;
}

/**
 * Tasks filtered as the address says (`#/tasks?model=vdq3&status=failed`), so a view can be shared.
 * A filter the API refuses (an unknown model, family or status) says so instead of showing no rows.
 */
function Tasks({ initial }) {
  const filters = Object.fromEntries(TASK_FILTERS.filter((k) => initial[k]).map((k) => [k, initial[k]]));
  const [draft, setDraft] = useState(filters);
  const [shown, setShown] = useState(50);
  const catalogue = useCatalogue();
  const [data, error] = usePolling(() => api(`/admin/v1/tasks${query({ ...filters, limit: shown })}`), 2000, [
    JSON.stringify(filters),
    shown,
  ]);
  const refused = error?.status === 400;
  const field = (name, label, list) =>
    html`<label
      >${label}
      <input
        name=${name}
        list=${list}
        value=${draft[name] ?? ''}
        onInput=${(e) => setDraft({ ...draft, [name]: e.currentTarget.value.trim() })}
    /></label>`;
  const families = [...new Set((catalogue ?? []).map((m) => m.family))];
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Tasks</h1>
    <datalist id="catalogue-models">${(catalogue ?? []).map((m) => html`<option value=${m.name} />`)}</datalist>
    <datalist id="catalogue-families">${families.map((f) => html`<option value=${f} />`)}</datalist>
    <form
      class="filters"
      role="search"
      aria-label="Filter tasks"
      onSubmit=${(e) => {
        e.preventDefault();
        location.hash = `#/tasks${query(draft)}`;
      }}
    >
      ${field('account_id', 'Account ID')} ${field('family', 'Family', 'catalogue-families')}
      ${field('model', 'Model', 'catalogue-models')}
      <label
        >Status
        <select
          name="status"
          value=${draft.status ?? ''}
          onChange=${(e) => setDraft({ ...draft, status: e.currentTarget.value })}
        >
          <option value="">any</option>
          ${[...TASK_STATUSES, ...(draft.status && !TASK_STATUSES.includes(draft.status) ? [draft.status] : [])].map(
            (s) => html`<option value=${s}>${s}</option>`,
          )}
        </select></label
      >
      ${field('external_task_id', 'External task ID')} ${field('upstream_task_id', 'Upstream task ID')}
      <button type="submit">Apply</button>
      ${
        Object.keys(filters).length
          ? html`<a class="button secondary" href="#/tasks" data-testid="clear-filters">Clear filters</a>`
          : null
      }
    </form>
    <p class="muted" aria-live="polite">Refreshes every 2 seconds. The address of this page keeps its filters.</p>
    ${
      refused
        ? html`<p class="error" role="alert" data-testid="filter-error">Filter not applied: ${error.message}</p>`
        : html`<${ErrorBox} error=${error} />`
    }
    ${
      refused
        ? null
        : data
          ? html`<${TaskTable} items=${data.items} />
              ${data.items.length ? null : html`<p class="muted">No task matches these filters.</p>`}
              ${
                data.next_cursor && shown < 200
                  ? html`<p>
                      <button class="secondary" onClick=${() => setShown(Math.min(200, shown + 50))}>Show more</button>
                    </p>`
                  : null
              }`
          : html`<p class="muted">Loading…</p>`
    }
  </section>`;
}

function VideoPlayer({ url, slot }) {
  const ref = useRef(null);
  return html`<figure>
    <video
      ref=${ref}
      src=${url}
      controls
      muted
      playsinline
      preload="auto"
      data-testid="result-video"
      aria-label=${`Result video ${slot}`}
    ></video>
    <figcaption class="muted">${slot}</figcaption>
  </figure>`;
}

function TaskDetail({ id }) {
  const [changes, setChanges] = useState(0);
  const [data, error, reload] = usePolling(() => api(`/admin/v1/tasks/${encodeURIComponent(id)}`), 2000, [id]);
  if (!data)
    return html`<section>
      <h1 id="page-title">Task ${id}</h1>
      <${ErrorBox} error=${error} />
      <p class="muted">Loading…</p>
    </section>`;
  const kv = [
    ['Status', html`<span data-testid="detail-status"><${Status} value=${data.status} /></span>`],
    ['Native status', data.native_status],
    ['Account', html`<a href=${`#/accounts/${data.account_id}`}>${data.account_name ?? data.account_id}</a>`],
    ['Key prefix', data.key_prefix ?? '—'],
    ['Model', `${data.model} (${data.family}, ${data.action})`],
    ['Channel', data.channel_id],
    ['Upstream task ID', data.upstream_task_id ?? '—'],
    ['External task ID', data.external_task_id ?? '—'],
    ['Charge', `${fmtCredits(data.final_charge ?? data.estimated_charge)} (${data.billing_state})`],
    ['Trace ID', data.trace_id ?? '—'],
    [
      'Failure',
      html`<span data-testid="detail-failure">${failureText(data.failure_code, data.failure_reason) ?? '—'}</span>`,
    ],
    ['Deleted by its owner', data.deleted_at ?? '—'],
  ];
  return html`<section aria-labelledby="page-title">
    <p><a href="#/tasks">← Tasks</a></p>
    <h1 id="page-title">Task ${data.id}</h1>
    <${ErrorBox} error=${error} />
    <div class="row">
      <div class="panel">
        <dl class="kv">
          ${kv.map(
            ([k, v]) =>
              html`<dt>${k}</dt>
                <dd>${v}</dd>`,
          )}
        </dl>
      </div>
      <div class="panel">
        <h2>Result</h2>
        <${ResultArea} task=${data} />
      </div>
    </div>
    <${TaskActions}
      task=${data}
      onChanged=${() => {
        setChanges((n) => n + 1);
        reload();
      }}
    />
    <h2>Timeline</h2>
    <ol class="timeline">
      ${data.timeline.map(
        (e) =>
          html`<li>
            <time datetime=${e.at}>${fmtTime(e.at)}</time><strong>${e.event}</strong> ${
              e.detail
                ? html` <span class="muted">${LEDGER_EVENTS.includes(e.event) ? fmtCredits(e.detail) : e.detail}</span>`
                : null
            }
          </li>`,
      )}
    </ol>
    <h2>Money</h2>
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>Kind</th>
            <th>Amount</th>
            <th>Price version</th>
            <th>At</th>
          </tr>
        </thead>
        <tbody>
          ${data.ledger.map(
            (e) =>
              html`<tr>
                <td>${e.kind}</td>
                <td>${fmtCredits(e.amount)}</td>
                <td>${e.price_version ?? '—'}</td>
                <td>${fmtTime(e.created_at)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <h2>Callback deliveries</h2>
    ${
      data.callbacks.length
        ? html`<div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>ID</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th>Last error</th>
                  <th>Next try</th>
                </tr>
              </thead>
              <tbody>
                ${data.callbacks.map(
                  (d) =>
                    html`<tr>
                      <td>${d.id}</td>
                      <td><${Status} value=${d.status} /></td>
                      <td>${d.attempts}/${d.max_attempts}</td>
                      <td class="wrap">${d.last_error ?? '—'}</td>
                      <td>${fmtTime(d.next_attempt_at)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p class="muted">${data.callback_url ? 'None yet.' : 'No callback URL.'}</p>`
    }
    <h2>Kept result files</h2>
    ${
      data.result_files.length
        ? html`<div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Slot</th>
                  <th>Status</th>
                  <th>Size</th>
                  <th>Type</th>
                  <th>Expires</th>
                </tr>
              </thead>
              <tbody>
                ${data.result_files.map(
                  (f) =>
                    html`<tr>
                      <td>${f.slot}</td>
                      <td><${Status} value=${f.status} /></td>
                      <td>${fmtNum(f.size_bytes)}</td>
                      <td>${f.content_type ?? '—'}</td>
                      <td>${fmtTime(f.expires_at)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p class="muted">None.</p>`
    }
    <h2>Request as sent upstream</h2>
    <pre>${JSON.stringify(data.upstream_request, null, 2)}</pre>
    <${AuditEntries} filters=${{ target_type: 'task', target_id: id }} title="Audit trail" refresh=${changes} />
  </section>`;
}

/** What the task produced: its videos, its voices, or in words why there is none. */
function ResultArea({ task }) {
  if (task.videos.length) return task.videos.map((v) => html`<${VideoPlayer} url=${v.url} slot=${v.slot} />`);
  if (task.voices?.length)
    return html`<div data-testid="result-voices">
      ${task.voices.map(
        (v) =>
          html`<p>A voice, not a video: <strong>${v.voice_name ?? v.voice_id}</strong> <code>${v.voice_id}</code></p>
            ${v.trial_url ? html`<audio controls preload="none" src=${v.trial_url} aria-label="Trial audio"></audio>` : null}`,
      )}
    </div>`;
  const why = failureText(task.failure_code, task.failure_reason);
  const text = task.deleted_at
    ? 'No video: its owner deleted the task, and its files with it.'
    : task.status === 'failed'
      ? `No video: the task failed. ${why ?? ''}`
      : task.status === 'rejected'
        ? `No video: the upstream refused the task. ${why ?? ''}`
        : task.status === 'cancelled'
          ? 'No video: the task was cancelled.'
          : task.status === 'succeeded'
            ? 'No video: the task succeeded, but the upstream returned no file.'
            : `No video yet: the task is ${task.status} (${task.progress}%).`;
  return html`<p class="muted" data-testid="result-none">${text.trim()}</p>`;
}

/**
 * What an operator may do to a task: cancel it (confirmed first), send its client callback again,
 * keep its result files again.
 * Each answer (or refusal, in the API's words) is shown under the buttons.
 */
function TaskActions({ task, onChanged }) {
  const can = useCan();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState(null);
  const [confirming, setConfirming] = useState(false);
  if (!can('operator')) return null;
  const run = (label, path, done) => async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await api(path, { method: 'POST', body: {} });
      setOutcome({ ok: true, text: done(answer) });
      onChanged();
    } catch (err) {
      setOutcome({ ok: false, text: `${label}: ${err.message}` });
    } finally {
      setBusy(false);
    }
  };
  const ended = TERMINAL.includes(task.status);
  const base = `/admin/v1/tasks/${encodeURIComponent(task.id)}`;
  return html`<div class="panel" data-testid="task-actions">
    <h2>Actions</h2>
    <p class="actions">
      ${
        confirming
          ? html`<button
                type="button"
                class="danger"
                disabled=${busy}
                onClick=${async () => {
                  setConfirming(false);
                  await run(
                    'Not cancelled',
                    `${base}/cancel`,
                    (a) => `Cancelled: the task is ${a.status}; its hold is released.`,
                  )();
                }}
              >
                Yes, cancel this task
              </button>
              <button type="button" class="secondary" onClick=${() => setConfirming(false)}>Keep it running</button>`
          : html`<button
              type="button"
              class="secondary"
              disabled=${busy || ended}
              title=${ended ? 'The task has ended.' : 'Asks the upstream to cancel it; some cannot.'}
              onClick=${() => setConfirming(true)}
            >
              Cancel the task
            </button>`
      }
      <button
        type="button"
        class="secondary"
        disabled=${busy || !task.callback_url || !ended}
        title=${!task.callback_url ? 'This task has no callback URL.' : ended ? '' : 'Sent when the task ends.'}
        onClick=${run(
          'Callback not sent again',
          `${base}/callbacks/redeliver`,
          (a) => `Callback queued again to ${a.callback_url} (${a.deliveries.length} deliveries in all).`,
        )}
      >
        Send the callback again
      </button>
      <button
        type="button"
        class="secondary"
        disabled=${busy || task.status !== 'succeeded'}
        title=${task.status === 'succeeded' ? '' : 'Only a succeeded task has result files.'}
        onClick=${run(
          'Result not kept again',
          `${base}/results/keep`,
          (a) => `Result files queued to be kept again: ${a.files.map((f) => `${f.slot} ${f.status}`).join(', ')}.`,
        )}
      >
        Keep the result again
      </button>
    </p>
    ${
      outcome
        ? html`<p
            class=${outcome.ok ? 'notice' : 'error'}
            role=${outcome.ok ? 'status' : 'alert'}
            data-testid="task-action-outcome"
          >
            ${outcome.text}
          </p>`
        : null
    }
  </div>`;
}

function Accounts() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [items, setItems] = useState([]);
  const [cursor, setCursor] = useState(null);
  const [error, setError] = useState(null);
  const [name, setName] = useState('');
  const [balance, setBalance] = useState('0');
  const load = useCallback(
    async (after) => {
      try {
        const page = await api(`/admin/v1/accounts${query({ q: search, cursor: after, limit: 50 })}`);
        setItems((prev) => (after ? [...prev, ...page.items] : page.items));
        setCursor(page.next_cursor);
        setError(null);
      } catch (err) {
        setError(err);
      }
    },
    [search],
  );
  useEffect(() => void load(null), [load]);
  const create = async (e) => {
    e.preventDefault();
    try {
      const units = creditsToUnits(balance || '0');
      if (units === null || units < 0)
        throw new Error('Opening balance: type credits, e.g. 100 or 12.5 (at most three decimals, not negative).');
      const account = await api('/admin/v1/accounts', { method: 'POST', body: { name, balance: units } });
      location.hash = `#/accounts/${account.id}`;
    } catch (err) {
      setError(err);
    }
  };
  const can = useCan();
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Accounts</h1>
    ${
      can('admin')
        ? html`<div class="panel">
            <h2>New account</h2>
            <form class="inline" onSubmit=${create}>
              <label
                >Name <input name="name" required value=${name} onInput=${(e) => setName(e.currentTarget.value)}
              /></label>
              <label
                >Opening balance (credits)
                <input
                  name="balance"
                  inputmode="decimal"
                  value=${balance}
                  onInput=${(e) => setBalance(e.currentTarget.value)}
              /></label>
              <button type="submit">Create account</button>
            </form>
          </div>`
        : null
    }
    <form
      class="filters"
      role="search"
      aria-label="Search accounts"
      onSubmit=${(e) => {
        e.preventDefault();
        setSearch(q);
      }}
    >
      <label>Name or ID <input name="q" value=${q} onInput=${(e) => setQ(e.currentTarget.value)} /></label>
      <button type="submit">Search</button>
    </form>
    <${ErrorBox} error=${error} />
    <div class="scroll">
      <table>
        <caption class="sr-only">
          Accounts
        </caption>
        <thead>
          <tr>
            <th>Name</th>
            <th>ID</th>
            <th>Balance</th>
            <th>Held</th>
            <th>In flight</th>
            <th>Disabled</th>
          </tr>
        </thead>
        <tbody>
          ${items.map(
            (a) =>
              html`<tr>
                <td><a href=${`#/accounts/${a.id}`}>${a.name}</a></td>
                <td>${a.id}</td>
                <td>${fmtCredits(a.balance)}</td>
                <td>${fmtCredits(a.held)}</td>
                <td>${a.in_flight_tasks}</td>
                <td>${a.disabled ? 'yes' : 'no'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${cursor ? html`<p><button class="secondary" onClick=${() => load(cursor)}>Load more</button></p>` : null}
  </section>`;
}

/** A confirmation asked in the page (not a browser dialog): the question, and buttons to go on or not. */
function Confirm({ question, yes, onYes, onNo }) {
  return html`<div class="notice" role="alertdialog" aria-label=${question} data-testid="confirm">
    <strong>${question}</strong>
    <button type="button" class="danger" onClick=${onYes}>${yes}</button>
    <button type="button" class="secondary" onClick=${onNo}>Cancel</button>
  </div>`;
}

/** Reads `text` as a whole number from 1 to `max`, or '' for no limit; throws a message naming `label`. */
function limitValue(text, label, max) {
  const typed = String(text).trim();
  if (typed === '') return null;
  const n = Number(typed);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`${label} must be a whole number from 1 to ${max.toLocaleString('en-US')}, or empty for no limit.`);
  return n;
}

/**
 * Grants chosen from the catalogue: one row per model (family, capabilities), ticked to grant it;
 * a granted model's capabilities can be narrowed (all ticked: every capability of the model).
 */
function GrantsEditor({ catalogue, grants, onSave }) {
  const initial = () =>
    Object.fromEntries(
      grants.map((g) => [g.model, g.capabilities ?? catalogue.find((m) => m.name === g.model)?.capabilities ?? []]),
    );
  const [chosen, setChosen] = useState(initial);
  const [familyFilter, setFamilyFilter] = useState('');
  useEffect(() => setChosen(initial()), [JSON.stringify(grants), catalogue.length]);
  const toggleModel = (m) =>
    setChosen((c) => {
      const next = { ...c };
      if (next[m.name]) delete next[m.name];
      else next[m.name] = [...m.capabilities];
      return next;
    });
  const toggleCapability = (m, cap) =>
    setChosen((c) => {
      const had = c[m.name] ?? [];
      const caps = had.includes(cap) ? had.filter((x) => x !== cap) : [...had, cap];
      return { ...c, [m.name]: caps };
    });
  const families = [...new Set(catalogue.map((m) => m.family))];
  const shown = catalogue.filter((m) => !familyFilter || m.family === familyFilter);
  const [problem, setProblem] = useState(null);
  const save = (e) => {
    e.preventDefault();
    const empty = Object.entries(chosen).find(([, caps]) => caps.length === 0);
    if (empty) return setProblem(`${empty[0]}: tick at least one capability, or untick the model.`);
    setProblem(null);
    const models = Object.entries(chosen).map(([model, caps]) => {
      const all = catalogue.find((m) => m.name === model)?.capabilities ?? [];
      return caps.length === all.length ? { model } : { model, capabilities: caps };
    });
    return onSave(models);
  };
  return html`<form onSubmit=${save} data-testid="grants-editor">
    <label
      >Family
      <select value=${familyFilter} onChange=${(e) => setFamilyFilter(e.currentTarget.value)}>
        <option value="">all</option>
        ${families.map((f) => html`<option value=${f}>${f}</option>`)}
      </select></label
    >
    <div class="scroll grants">
      <table>
        <caption class="sr-only">
          Models of the catalogue
        </caption>
        <thead>
          <tr>
            <th>Granted</th>
            <th>Model</th>
            <th>Family</th>
            <th>Capabilities</th>
          </tr>
        </thead>
        <tbody>
          ${shown.map(
            (m) =>
              html`<tr data-model=${m.name}>
                <td>
                  <input
                    type="checkbox"
                    aria-label=${`Grant ${m.name}`}
                    checked=${Boolean(chosen[m.name])}
                    onChange=${() => toggleModel(m)}
                  />
                </td>
                <td>${m.name}</td>
                <td>${m.family}</td>
                <td class="wrap">
                  ${m.capabilities.map(
                    (cap) =>
                      html`<label class="check"
                        ><input
                          type="checkbox"
                          aria-label=${`${m.name} ${cap}`}
                          disabled=${!chosen[m.name]}
                          checked=${Boolean(chosen[m.name]?.includes(cap))}
                          onChange=${() => toggleCapability(m, cap)}
                        />${cap}</label
                      >`,
                  )}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
    <p>
      <button type="submit">Save grants</button>
      <span class="muted">${Object.keys(chosen).length} models granted</span>
    </p>
  </form>`;
}

function AccountDetail({ id }) {
  const [account, setAccount] = useState(null);
  const [keys, setKeys] = useState([]);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  const [issued, setIssued] = useState(null);
  const [copied, setCopied] = useState(false);
  const [topUp, setTopUp] = useState({ delta: '', reason: '' });
  const [limits, setLimits] = useState({ rpm: '', concurrent: '' });
  const [keyForm, setKeyForm] = useState({ name: '', expires: '', models: [] });
  const [confirm, setConfirm] = useState(null);
  const [changes, setChanges] = useState(0);
  const catalogue = useCatalogue();
  const reload = useCallback(async () => {
    try {
      const [a, k] = await Promise.all([
        api(`/admin/v1/accounts/${encodeURIComponent(id)}`),
        api(`/admin/v1/accounts/${encodeURIComponent(id)}/keys`),
      ]);
      setAccount(a);
      setKeys(k.items);
      setLimits({ rpm: a.rate_limit_rpm ?? '', concurrent: a.max_concurrent_tasks ?? '' });
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [id]);
  useEffect(() => void reload(), [reload]);
  const act = (fn, said) => async (e) => {
    e?.preventDefault();
    setNotice(null);
    try {
      await fn();
      setChanges((n) => n + 1);
      setError(null);
      if (said) setNotice(said);
      await reload();
    } catch (err) {
      setError(err);
    }
  };
  const can = useCan();
  if (!account)
    return html`<section>
      <h1 id="page-title">Account</h1>
      <${ErrorBox} error=${error} />
    </section>`;
  const base = `/admin/v1/accounts/${encodeURIComponent(id)}`;
  const patch = (body, said) => act(() => api(base, { method: 'PATCH', body }), said);
  return html`<section aria-labelledby="page-title">
    <p><a href="#/accounts">← Accounts</a></p>
    <h1 id="page-title">${account.name}</h1>
    <${ErrorBox} error=${error} />
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
    <div class="cards">
      <div class="card">
        <div class="label">Balance</div>
        <div class="value" data-testid="balance">${fmtCredits(account.balance)}</div>
      </div>
      <div class="card">
        <div class="label">Held</div>
        <div class="value">${fmtCredits(account.held)}</div>
      </div>
      <div class="card">
        <div class="label">In flight</div>
        <div class="value">${account.in_flight_tasks}</div>
      </div>
      <div class="card">
        <div class="label">State</div>
        <div class="value" data-testid="account-state">${account.disabled ? 'disabled' : 'enabled'}</div>
      </div>
    </div>
    <p class="muted">${account.id} · <a href=${`#/tasks?account_id=${account.id}`}>tasks</a></p>
    ${
      can('admin')
        ? html`<div class="row">
              <div class="panel">
                <h2>Access</h2>
                ${
                  confirm?.kind === 'disable'
                    ? html`<${Confirm}
                        question=${`Disable ${account.name}? Its keys are refused until it is enabled again.`}
                        yes="Disable account"
                        onYes=${() => {
                          setConfirm(null);
                          void patch({ disabled: true }, 'Account disabled.')();
                        }}
                        onNo=${() => setConfirm(null)}
                      />`
                    : account.disabled
                      ? html`<button type="button" onClick=${patch({ disabled: false }, 'Account enabled.')}>
                          Enable account
                        </button>`
                      : html`<button type="button" class="danger" onClick=${() => setConfirm({ kind: 'disable' })}>
                          Disable account
                        </button>`
                }
                <h2>Limits</h2>
                <form
                  class="inline"
                  onSubmit=${act(async () => {
                    await api(base, {
                      method: 'PATCH',
                      body: {
                        rate_limit_rpm: limitValue(limits.rpm, 'Requests per minute', 1_000_000),
                        max_concurrent_tasks: limitValue(limits.concurrent, 'Tasks at once', 100_000),
                      },
                    });
                  }, 'Limits saved.')}
                >
                  <label
                    >Requests per minute
                    <input
                      name="rate_limit_rpm"
                      inputmode="numeric"
                      placeholder="no limit"
                      value=${limits.rpm}
                      onInput=${(e) => setLimits({ ...limits, rpm: e.currentTarget.value })}
                  /></label>
                  <label
                    >Tasks at once
                    <input
                      name="max_concurrent_tasks"
                      inputmode="numeric"
                      placeholder="no limit"
                      value=${limits.concurrent}
                      onInput=${(e) => setLimits({ ...limits, concurrent: e.currentTarget.value })}
                  /></label>
                  <button type="submit">Save limits</button>
                </form>
              </div>
              <div class="panel">
                <h2>Top up</h2>
                <form
                  class="inline"
                  onSubmit=${act(async () => {
                    const delta = creditsToUnits(topUp.delta);
                    if (delta === null || delta === 0)
                      throw new Error('Amount: type credits, e.g. 25 or -2.5 (at most three decimals, not zero).');
                    await api(`${base}/balance`, { method: 'POST', body: { delta, reason: topUp.reason } });
                    setTopUp({ delta: '', reason: '' });
                  }, 'Balance adjusted.')}
                >
                  <label
                    >Amount (credits)
                    <input
                      name="delta"
                      inputmode="decimal"
                      required
                      value=${topUp.delta}
                      onInput=${(e) => setTopUp({ ...topUp, delta: e.currentTarget.value })}
                  /></label>
                  <label
                    >Reason
                    <input
                      name="reason"
                      required
                      value=${topUp.reason}
                      onInput=${(e) => setTopUp({ ...topUp, reason: e.currentTarget.value })}
                  /></label>
                  <button type="submit">Apply</button>
                </form>
                <p class="muted">Credits; negative takes credits away. 1 credit = 1,000 units of the API.</p>
              </div>
            </div>
            <div class="panel">
              <h2>Models (grants)</h2>
              ${
                catalogue
                  ? html`<${GrantsEditor}
                      catalogue=${catalogue}
                      grants=${account.models}
                      onSave=${(models) => act(() => api(`${base}/models`, { method: 'PUT', body: { models } }), 'Grants saved.')()}
                    />`
                  : html`<p class="muted">Loading the catalogue…</p>`
              }
            </div>`
        : html`<div class="panel">
            <h2>Models (grants)</h2>
            <p>${account.models.map((g) => g.model).join(', ') || 'none'}</p>
          </div>`
    }
    <div class="panel">
      <h2>API keys</h2>
      ${
        can('admin')
          ? html`<form
              class="inline"
              onSubmit=${act(async () => {
                const expires = keyForm.expires ? new Date(keyForm.expires) : null;
                if (expires && !(expires.getTime() > Date.now()))
                  throw new Error('Expires: choose a time in the future.');
                const key = await api(`${base}/keys`, {
                  method: 'POST',
                  body: {
                    name: keyForm.name || undefined,
                    expires_at: expires ? expires.toISOString() : undefined,
                    models: keyForm.models.length ? keyForm.models : undefined,
                  },
                });
                setIssued(key);
                setCopied(false);
                setKeyForm({ name: '', expires: '', models: [] });
              })}
            >
              <label
                >Key name
                <input
                  name="key-name"
                  value=${keyForm.name}
                  onInput=${(e) => setKeyForm({ ...keyForm, name: e.currentTarget.value })}
              /></label>
              <label
                >Expires (optional)
                <input
                  name="key-expires"
                  type="datetime-local"
                  value=${keyForm.expires}
                  onInput=${(e) => setKeyForm({ ...keyForm, expires: e.currentTarget.value })}
              /></label>
              <label
                >Only these models (optional)
                <select
                  name="key-models"
                  multiple
                  size="4"
                  onChange=${(e) =>
                    setKeyForm({ ...keyForm, models: [...e.currentTarget.selectedOptions].map((o) => o.value) })}
                >
                  ${account.models.map(
                    (g) =>
                      html`<option value=${g.model} selected=${keyForm.models.includes(g.model)}>${g.model}</option>`,
                  )}
                </select></label
              >
              <button type="submit">Create key</button>
            </form>`
          : null
      }
      ${
        issued
          ? html`<div class="notice" role="status">
              <strong>New key ${issued.prefix}: copy it now, it is shown this once.</strong>
              <code class="secret" data-testid="issued-secret">${issued.key}</code>
              <button
                type="button"
                class="secondary"
                onClick=${() =>
                  navigator.clipboard?.writeText(issued.key).then(
                    () => setCopied(true),
                    () => setCopied(false),
                  )}
              >
                ${copied ? 'Copied' : 'Copy'}
              </button>
              <button type="button" onClick=${() => setIssued(null)}>I have saved it</button>
            </div>`
          : null
      }
      ${
        confirm?.kind === 'revoke'
          ? html`<${Confirm}
              question=${`Revoke key ${confirm.key.prefix}${confirm.key.name ? ` (${confirm.key.name})` : ''}? Every request with it is refused at once; this cannot be undone.`}
              yes="Revoke key"
              onYes=${() => {
                const key = confirm.key;
                setConfirm(null);
                void act(() => api(`/admin/v1/keys/${key.id}`, { method: 'DELETE' }), `Key ${key.prefix} revoked.`)();
              }}
              onNo=${() => setConfirm(null)}
            />`
          : null
      }
      <div class="scroll">
        <table>
          <caption class="sr-only">
            API keys
          </caption>
          <thead>
            <tr>
              <th>Prefix</th>
              <th>Name</th>
              <th>Models</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Revoked</th>
              <th><span class="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${keys.map(
              (k) =>
                html`<tr data-key-id=${k.id}>
                  <td><code>${k.prefix}</code></td>
                  <td>${k.name ?? '—'}</td>
                  <td>${k.models ? k.models.join(', ') : 'all granted'}</td>
                  <td>${fmtTime(k.created_at)}</td>
                  <td>${fmtTime(k.last_used_at)}</td>
                  <td>${k.expires_at ? fmtTime(k.expires_at) : 'never'}</td>
                  <td>${k.revoked_at ? fmtTime(k.revoked_at) : '—'}</td>
                  <td>
                    ${
                      k.revoked_at || !can('admin')
                        ? null
                        : html`<button
                            class="danger"
                            aria-label=${`Revoke key ${k.prefix}`}
                            onClick=${() => setConfirm({ kind: 'revoke', key: k })}
                          >
                            Revoke
                          </button>`
                    }
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </div>
    <${AuditEntries} filters=${{ account_id: id }} title="Audit trail" refresh=${changes} />
  </section>`;
}

/** Every UTC day from `from` to `to` (exclusive; default: today included), at most 92, so empty days show too. */
function dayRange(rows, from, to) {
  const seen = rows.map((r) => r.day).sort();
  const first = Date.parse(from || seen[0] || todayUtc());
  const last = to
    ? Date.parse(to) - 86_400_000
    : Math.max(Date.parse(todayUtc()), Date.parse(seen.at(-1) ?? todayUtc()));
  const days = [];
  for (let t = Math.max(first, last - 91 * 86_400_000); t <= last; t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

function UsageChart({ rows, from, to }) {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  if (!rows.length) return html`<p class="muted">No charged tasks in this range.</p>`;
  const days = dayRange(rows, from, to);
  const labelEvery = Math.ceil(days.length / 12);
  const totals = days.map((d) => rows.filter((r) => r.day === d).reduce((s, r) => s + r.amount, 0));
  const max = Math.max(...totals, 1);
  const W = 760,
    H = 260,
    pad = 40;
  const band = (W - pad * 2) / days.length;
  const bar = Math.max(4, Math.min(48, band * 0.7));
  return html`<div class="chart" data-testid="usage-chart">
    <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${`Charged amount per day and model, ${days.length} days`}>
      <line x1=${pad} y1=${H - pad} x2=${W - pad} y2=${H - pad} stroke="#9aa3b2" />
      <text x=${pad} y=${pad - 12} font-size="12" fill="#5b6270">max ${fmtCredits(max)}</text>
      ${days.map((d, i) => {
        let y = H - pad;
        const x = pad + i * band + (band - bar) / 2;
        return html`<g>
          ${models.map((m, j) => {
            const row = rows.find((r) => r.day === d && r.model === m);
            if (!row) return null;
            const h = (row.amount / max) * (H - pad * 2);
            y -= h;
            return html`<rect
              x=${x}
              y=${y}
              width=${bar}
              height=${Math.max(h, 1)}
              fill=${PALETTE[j % PALETTE.length]}
              data-model=${m}
              data-day=${d}
            >
              <title>${`${d} ${m}: ${fmtCredits(row.amount)} (${row.tasks} tasks)`}</title></rect
            >`;
          })}
          ${
            i % labelEvery === 0
              ? html`<text x=${x + bar / 2} y=${H - pad + 16} font-size="11" text-anchor="middle" fill="#5b6270"
                  >${d.slice(5)}</text
                >`
              : null
          }
        </g>`;
      })}
    </svg>
    <div class="legend">
      ${models.map((m, j) => html`<span><span class=${`swatch swatch-${j % PALETTE.length}`}></span>${m}</span>`)}
    </div>
  </div>`;
}

function Usage() {
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const [draft, setDraft] = useState({ from: monthAgo, to: '', account_id: '', model: '' });
  const [filters, setFilters] = useState(draft);
  const [data, error] = usePolling(() => api(`/admin/v1/usage/daily${query(filters)}`), 0, [filters]);
  const [downloadError, setDownloadError] = useState(null);
  const download = async () => {
    try {
      await downloadCsv(`/admin/v1/usage/daily${query({ ...filters, format: 'csv' })}`, 'usage-daily.csv');
    } catch (err) {
      setDownloadError(err);
    }
  };
  const field = (name, label, type = 'text') =>
    html`<label
      >${label}
      <input
        name=${name}
        type=${type}
        value=${draft[name]}
        onInput=${(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
    /></label>`;
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Usage</h1>
    <form
      class="filters"
      aria-label="Usage range"
      onSubmit=${(e) => {
        e.preventDefault();
        setFilters({ ...draft });
      }}
    >
      ${field('from', 'From (UTC)', 'date')} ${field('to', 'To (exclusive)', 'date')}
      ${field('account_id', 'Account ID')} ${field('model', 'Model')}
      <button type="submit">Show</button>
      <button type="button" class="secondary" onClick=${download}>Download CSV</button>
    </form>
    <${ErrorBox} error=${error ?? downloadError} />
    ${
      data
        ? html`<div class="panel"><${UsageChart} rows=${data.items} from=${filters.from} to=${filters.to} /></div>
            <div class="scroll">
              <table>
                <caption class="sr-only">
                  Usage per day and model
                </caption>
                <thead>
                  <tr>
                    <th>Day</th>
                    <th>Model</th>
                    <th>Tasks</th>
                    <th>Amount</th>
                  </tr>
                </thead>
                <tbody>
                  ${data.items.map(
                    (r) =>
                      html`<tr>
                        <td>${r.day}</td>
                        <td>${r.model}</td>
                        <td>${r.tasks}</td>
                        <td>${fmtCredits(r.amount)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
        : html`<p class="muted">Loading…</p>`
    }
  </section>`;
}

/** A price entry's fields: what the amount is for, and what it depends on. */
const PRICE_FIELDS = {
  per_second: 'Per output second, by resolution',
  edit_per_second: 'Per edited second, by mode',
  per_reference_image: 'Per reference image',
  per_reference_video: 'Per reference video',
  voice: 'Per custom voice',
  session_ops: 'Per session operation',
  audio_bp: 'Multiplier with audio',
  off_peak_bp: 'Multiplier off-peak',
  silent_bp: 'Multiplier when silent',
};
const BP_ONE = 10000;
/** Multipliers are kept in basis points (10000 = ×1); every other leaf is an amount in units. */
const isMultiplier = (path) => path[0].endsWith('_bp');
const fieldLabel = (path) => [PRICE_FIELDS[path[0]] ?? path[0], ...path.slice(1)].join(' · ');

/** An entry's leaves as [path, value], in the order the entry has them. */
function priceLeaves(entry, path = []) {
  return Object.entries(entry).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' ? priceLeaves(v, [...path, k]) : [[[...path, k], v]],
  );
}
const shownPrice = (path, units) => (isMultiplier(path) ? String(units / BP_ONE) : String(units / UNITS_PER_CREDIT));

/** A model's prices in one line: each field with what it depends on (`720p 0.8 credits, 1080p 1.4 credits`). */
function priceSummary(entry) {
  return Object.entries(entry)
    .map(([k, v]) => {
      const one = (x) => (isMultiplier([k]) ? `×${x / BP_ONE}` : fmtCredits(x));
      const label = PRICE_FIELDS[k] ?? k;
      return v !== null && typeof v === 'object'
        ? `${label}: ${Object.entries(v)
            .map(([sub, x]) => `${sub} ${one(x)}`)
            .join(', ')}`
        : `${label}: ${one(v)}`;
    })
    .join('; ');
}

/** The typed form of one model back to its entry; throws a message naming the field and what to type. */
function readPriceForm(model, entry, typed) {
  const next = structuredClone(entry);
  for (const [path] of priceLeaves(entry)) {
    const key = path.join('.');
    const text = String(typed[key] ?? '').trim();
    let value;
    if (isMultiplier(path)) {
      value = /^\d+(\.\d{1,4})?$/.test(text) ? Math.round(Number(text) * BP_ONE) : null;
      if (value === null || value > 10 * BP_ONE)
        throw new Error(
          `${model} · ${fieldLabel(path)}: type a multiplier from 0 to 10, e.g. 1.25 (at most four decimals).`,
        );
    } else {
      value = creditsToUnits(text);
      if (value === null || value < 0)
        throw new Error(
          `${model} · ${fieldLabel(path)}: type credits, e.g. 0.8 (not negative, at most three decimals).`,
        );
    }
    let at = next;
    for (const k of path.slice(0, -1)) at = at[k];
    at[path.at(-1)] = value;
  }
  return next;
}

/** The API's refusal of a table, in the form's words: which model and field, and the unit its numbers are in. */
function priceError(err) {
  const m = /^models\.([^ ]+?)\.([\w.]+) (.*)$/.exec(err.message ?? '');
  if (!m) return err.message;
  const path = m[2].split('.');
  const unit = isMultiplier(path) ? ' (in basis points: 10000 = ×1)' : ' (in units: 1000 = 1 credit)';
  return `${m[1]} · ${fieldLabel(path)}: ${m[3]}${unit}`;
}

function Prices() {
  const [table, setTable] = useState(null);
  const [model, setModel] = useState('');
  const [typed, setTyped] = useState({});
  const [text, setText] = useState('');
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(null);
  const [changes, setChanges] = useState(0);
  const shown = useCallback((t, name) => {
    setTable(t);
    setText(JSON.stringify(t, null, 2));
    const chosen = name && t.models[name] ? name : Object.keys(t.models)[0];
    setModel(chosen);
    setTyped(Object.fromEntries(priceLeaves(t.models[chosen]).map(([p, v]) => [p.join('.'), shownPrice(p, v)])));
  }, []);
  useEffect(() => {
    api('/admin/v1/prices').then((t) => shown(t), setError);
  }, [shown]);
  const can = useCan();
  const put = async (body) => {
    setSaved(null);
    try {
      const next = await api('/admin/v1/prices', { method: 'PUT', body });
      shown(next, model);
      setSaved(`Saved as version ${next.version}.`);
      setError(null);
      setChanges((n) => n + 1);
    } catch (err) {
      setError(new Error(priceError(err)));
    }
  };
  const saveForm = (e) => {
    e.preventDefault();
    try {
      void put({ ...table, models: { ...table.models, [model]: readPriceForm(model, table.models[model], typed) } });
    } catch (err) {
      setSaved(null);
      setError(err);
    }
  };
  const saveJson = (e) => {
    e.preventDefault();
    let body;
    try {
      body = JSON.parse(text);
    } catch (err) {
      return setError(new Error(`The raw table is not JSON: ${err.message}`));
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body.models !== 'object')
      return setError(new Error('The raw table must be a JSON object with a "models" object.'));
    // The version is the server's to number, and the unit is the table's: a table without them keeps the current ones.
    body = { version: table.version, unit: table.unit, currency_unit: table.currency_unit, ...body };
    const missing = Object.keys(table.models).filter((name) => !(name in body.models));
    if (missing.length)
      return setError(
        new Error(
          `The table must price every model; missing: ${missing.join(', ')}. Add them to the JSON, or change one model in the form above.`,
        ),
      );
    return put(body);
  };
  const pick = (name) => {
    setModel(name);
    setTyped(Object.fromEntries(priceLeaves(table.models[name]).map(([p, v]) => [p.join('.'), shownPrice(p, v)])));
  };
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Prices</h1>
    <${ErrorBox} error=${error} />
    ${saved ? html`<p class="notice" role="status">${saved}</p>` : null}
    ${
      table
        ? html`<p>
              Version <strong data-testid="price-version">${table.version}</strong>.
              ${`Amounts in credits (the API keeps ${table.unit}s: ${table.currency_unit.split('.')[0]}); multipliers as ×.`}
            </p>
            <div class="scroll">
              <table>
                <caption class="sr-only">
                  Prices per model
                </caption>
                <thead>
                  <tr>
                    <th>Model</th>
                    <th>Prices</th>
                  </tr>
                </thead>
                <tbody>
                  ${Object.entries(table.models).map(
                    ([m, p]) =>
                      html`<tr data-price-model=${m}>
                        <td>${m}</td>
                        <td class="wrap">${priceSummary(p)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            ${
              can('admin')
                ? html`<h2>Change a model's prices</h2>
                    <form onSubmit=${saveForm} data-testid="price-form">
                      <label
                        >Model
                        <select name="price-model" value=${model} onChange=${(e) => pick(e.currentTarget.value)}>
                          ${Object.keys(table.models).map((m) => html`<option value=${m}>${m}</option>`)}
                        </select></label
                      >
                      <div class="price-fields">
                        ${priceLeaves(table.models[model]).map(([path]) => {
                          const key = path.join('.');
                          return html`<label
                            >${fieldLabel(path)} (${isMultiplier(path) ? '×' : 'credits'})
                            <input
                              name=${`price-${key}`}
                              inputmode="decimal"
                              value=${typed[key] ?? ''}
                              onInput=${(e) => setTyped({ ...typed, [key]: e.currentTarget.value })}
                          /></label>`;
                        })}
                      </div>
                      <p>
                        <button type="submit">Save prices</button>
                        <span class="muted">Saved as a new version, used by every later task.</span>
                      </p>
                    </form>
                    <details>
                      <summary>Raw JSON (the whole table, in units)</summary>
                      <form onSubmit=${saveJson}>
                        <label for="price-json"
                          >Price table (JSON); saved as a new version used by every later task
                          <textarea
                            id="price-json"
                            spellcheck="false"
                            value=${text}
                            onInput=${(e) => setText(e.currentTarget.value)}
                          ></textarea>
                        </label>
                        <p><button type="submit">Save JSON</button></p>
                      </form>
                    </details>`
                : null
            }
            <${AuditEntries} filters=${{ target_type: 'prices' }} title="Changes" refresh=${changes} />`
        : html`<p class="muted">Loading…</p>`
    }
  </section>`;
}

/** Fields of an audit entry that are amounts of money (units), shown in credits. */
const MONEY_FIELDS = ['balance', 'held', 'delta', 'amount'];

/** What a change did: one line per field whose value differs, `field: before → after` (`field: value` when new). */
function changeLines(before, after) {
  const b = before ?? {};
  const a = after ?? {};
  const show = (k, v) =>
    v === undefined ? '—' : MONEY_FIELDS.includes(k) && typeof v === 'number' ? fmtCredits(v) : JSON.stringify(v);
  return [...new Set([...Object.keys(b), ...Object.keys(a)])]
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => (k in b ? `${k}: ${show(k, b[k])} → ${show(k, a[k])}` : `${k}: ${show(k, a[k])}`));
}

/**
 * Audit entries matching `filters`, newest first, a page at a time (an account's, a channel's, a task's
 * page); read again whenever `refresh` changes (after a change made on that page).
 */
function AuditEntries({ filters, title, refresh }) {
  const [items, setItems] = useState([]);
  const [cursor, setCursor] = useState(null);
  const [error, setError] = useState(null);
  const key = JSON.stringify(filters);
  const load = useCallback(
    async (after) => {
      try {
        const page = await api(`/admin/v1/audit${query({ ...filters, cursor: after, limit: 50 })}`);
        setItems((prev) => (after ? [...prev, ...page.items] : page.items));
        setCursor(page.next_cursor);
        setError(null);
      } catch (err) {
        setError(err);
      }
    },
    [key, refresh],
  );
  useEffect(() => void load(null), [load]);
  return html`<div class="panel" data-testid="audit-entries">
    ${title ? html`<h2>${title}</h2>` : null}
    <${ErrorBox} error=${error} />
    ${
      items.length
        ? html`<div class="scroll">
            <table>
              <caption class="sr-only">
                Audit entries
              </caption>
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>Target</th>
                  <th>Change</th>
                  <th>Request</th>
                </tr>
              </thead>
              <tbody>
                ${items.map(
                  (e) =>
                    html`<tr data-audit-id=${e.id}>
                      <td>${fmtTime(e.at)}</td>
                      <td>${e.actor.name} <span class="muted">(${e.actor.role})</span></td>
                      <td><code>${e.action}</code></td>
                      <td>${e.target.type} <code>${e.target.id}</code></td>
                      <td class="change">${changeLines(e.before, e.after).map((line) => html`<div>${line}</div>`)}</td>
                      <td>
                        <code class="muted" title=${e.request_id ?? ''}>${(e.request_id ?? '—').slice(0, 8)}</code>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p class="muted">No changes recorded.</p>`
    }
    ${cursor ? html`<p><button class="secondary" onClick=${() => load(cursor)}>Load more</button></p>` : null}
  </div>`;
}

/** Every admin change: filtered by who, what, on what and when; CSV of all that match. */
function Audit({ initial }) {
  const blank = { actor: '', action: '', target_type: '', target_id: '', from: '', to: '' };
  const [draft, setDraft] = useState({ ...blank, ...initial });
  const [filters, setFilters] = useState({ ...blank, ...initial });
  const [error, setError] = useState(null);
  const field = (name, label, type = 'text') =>
    html`<label
      >${label}
      <input
        name=${name}
        type=${type}
        value=${draft[name]}
        onInput=${(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
    /></label>`;
  const download = async () => {
    try {
      await downloadCsv(`/admin/v1/audit${query({ ...filters, format: 'csv' })}`, 'audit.csv');
    } catch (err) {
      setError(err);
    }
  };
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Audit</h1>
    <form
      class="filters"
      role="search"
      aria-label="Filter the audit trail"
      onSubmit=${(e) => {
        e.preventDefault();
        setFilters(draft);
      }}
    >
      ${field('actor', 'Operator ID')}
      <label
        >Action
        <select
          name="action"
          value=${draft.action}
          onChange=${(e) => setDraft({ ...draft, action: e.currentTarget.value })}
        >
          <option value="">any</option>
          ${AUDIT_ACTIONS.map((a) => html`<option value=${a}>${a}</option>`)}
        </select></label
      >
      ${field('target_type', 'Target type')} ${field('target_id', 'Target ID')} ${field('from', 'From', 'date')}
      ${field('to', 'To', 'date')}
      <button type="submit">Apply</button>
      <button type="button" class="secondary" onClick=${download}>Download CSV</button>
    </form>
    <${ErrorBox} error=${error} />
    <${AuditEntries} filters=${filters} key=${JSON.stringify(filters)} />
  </section>`;
}

/** What a credential check found, in words: the upstream's verdict, status, code and message. */
function CheckResult({ result }) {
  if (!result) return null;
  if (result.error)
    return html`<p class="error" role="alert" data-testid="check-result">
      Check of ${result.channel} failed: ${result.error}
    </p>`;
  const verdict =
    result.credential === 'accepted'
      ? 'credential accepted'
      : result.credential === 'refused'
        ? 'credential REFUSED'
        : 'no verdict (the upstream did not answer the query)';
  const status = [result.http_status && `HTTP ${result.http_status}`, result.code && `code ${result.code}`]
    .filter(Boolean)
    .join(', ');
  return html`<p
    class=${result.credential === 'refused' ? 'error' : 'notice'}
    role="status"
    data-testid="check-result"
    data-credential=${result.credential}
  >
    <strong>${result.channel_id}: ${verdict}</strong> ${status ? `(${status})` : ''} — ${result.message}
    <span class="muted">· ${result.latency_ms} ms, ${fmtTime(result.checked_at)}</span>
  </p>`;
}

/** Runs a channel's credential check; returns [result, check(id)]. */
function useCredentialCheck() {
  const [result, setResult] = useState(null);
  const check = async (id) => {
    setResult(null);
    try {
      setResult(await api(`/admin/v1/channels/${encodeURIComponent(id)}/check`, { method: 'POST', body: {} }));
    } catch (err) {
      setResult({ channel: id, error: err.message });
    }
  };
  return [result, check];
}

const fmtLatency = (c) => (c.latency_ms ? `${c.latency_ms.p50} / ${c.latency_ms.p99}` : '—');
const fmtLastError = (c) => (c.last_error ? `${fmtTime(c.last_error.at)}: ${c.last_error.message}` : '—');

/** The upstream channels: state and figures; an operator turns one on or off and checks its credential. */
function Channels() {
  const can = useCan();
  const [data, error, reload] = usePolling(() => api('/admin/v1/channels'), 5000, []);
  const [actionError, setActionError] = useState(null);
  const [checked, check] = useCredentialCheck();
  const toggle = async (channel) => {
    try {
      await api(`/admin/v1/channels/${encodeURIComponent(channel.id)}`, {
        method: 'PATCH',
        body: { enabled: !channel.enabled },
      });
      setActionError(null);
      reload();
    } catch (err) {
      setActionError(err);
    }
  };
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Channels</h1>
    <${ErrorBox} error=${error ?? actionError} />
    <${CheckResult} result=${checked} />
    <div class="scroll">
      <table>
        <caption class="sr-only">
          Upstream channels
        </caption>
        <thead>
          <tr>
            <th>Channel</th>
            <th>Family</th>
            <th>Models</th>
            <th>Enabled</th>
            <th>Weight</th>
            <th>Priority</th>
            <th>Breaker</th>
            <th>In flight</th>
            <th>Errors (1 h)</th>
            <th>p50 / p99 ms</th>
            <th>Last error</th>
            <th><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${(data?.data ?? []).map(
            (c) =>
              html`<tr data-channel-id=${c.id}>
                <td>
                  <a href=${`#/channels/${c.id}`}>${c.id}</a>
                  ${c.healthy ? null : html`<div class="error" title=${c.unhealthy_reason ?? ''}>unhealthy</div>`}
                </td>
                <td>${c.family}</td>
                <td class=${c.models ? 'wrap' : ''}>${c.models ? c.models.join(', ') : 'all of its family'}</td>
                <td data-testid="channel-enabled">${c.enabled ? 'yes' : 'no'}</td>
                <td data-testid="channel-weight">${c.weight}</td>
                <td data-testid="channel-priority">${c.priority}</td>
                <td><${Status} value=${c.breaker} /></td>
                <td>${c.in_flight}${c.max_in_flight === null ? '' : ` / ${c.max_in_flight}`}</td>
                <td>${c.last_hour.errors} / ${c.last_hour.creates}</td>
                <td>${fmtLatency(c)}</td>
                <td class="wrap">${fmtLastError(c)}</td>
                <td class="actions">
                  ${
                    can('operator')
                      ? html`<button
                            class="secondary"
                            aria-label=${`${c.enabled ? 'Disable' : 'Enable'} ${c.id}`}
                            onClick=${() => toggle(c)}
                          >
                            ${c.enabled ? 'Disable' : 'Enable'}
                          </button>
                          <button
                            class="secondary"
                            aria-label=${`Check credential of ${c.id}`}
                            onClick=${() => check(c.id)}
                          >
                            Check credential
                          </button>`
                      : null
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p class="muted">
      A credential check queries a task that does not exist with the channel's credential: the vendor charges nothing
      for it.
    </p>
  </section>`;
}

function ChannelDetail({ id }) {
  const can = useCan();
  const [data, error, reload] = usePolling(() => api('/admin/v1/channels'), 5000, []);
  const [tuning, setTuning] = useState(null);
  const [actionError, setActionError] = useState(null);
  const [saved, setSaved] = useState(null);
  const [changes, setChanges] = useState(0);
  const [checked, check] = useCredentialCheck();
  const channel = data?.data.find((c) => c.id === id);
  useEffect(() => {
    if (channel && tuning === null) setTuning({ weight: String(channel.weight), priority: String(channel.priority) });
  }, [channel, tuning]);
  const patch = async (body, said) => {
    setSaved(null);
    try {
      await api(`/admin/v1/channels/${encodeURIComponent(id)}`, { method: 'PATCH', body });
      setActionError(null);
      setChanges((n) => n + 1);
      setSaved(said);
      reload();
    } catch (err) {
      setActionError(err);
    }
  };
  const saveTuning = (e) => {
    e.preventDefault();
    const weight = Number(tuning.weight);
    const priority = Number(tuning.priority);
    if (!Number.isInteger(weight) || weight < 0 || weight > 1_000_000)
      return setActionError(new Error('Weight must be a whole number from 0 (takes no new task) to 1,000,000.'));
    if (!Number.isInteger(priority) || priority < -1000 || priority > 1000)
      return setActionError(new Error('Priority must be a whole number from -1000 to 1000 (higher tiers go first).'));
    return patch({ weight, priority }, 'Weight and priority saved.');
  };
  const card = (label, value, testid) =>
    html`<div class="card">
      <div class="label">${label}</div>
      <div class="value" data-testid=${testid}>${value}</div>
    </div>`;
  return html`<section aria-labelledby="page-title">
    <p><a href="#/channels">← Channels</a></p>
    <h1 id="page-title">${id}</h1>
    <${ErrorBox} error=${error ?? actionError} />
    ${saved ? html`<p class="notice" role="status">${saved}</p>` : null}
    <${CheckResult} result=${checked} />
    ${
      channel
        ? html`<div class="cards">
              ${card('Enabled', channel.enabled ? 'yes' : 'no', 'detail-enabled')}
              ${card('Weight', channel.weight, 'detail-weight')}
              ${card('Priority', channel.priority, 'detail-priority')} ${card('In flight', channel.in_flight)}
              ${card('Breaker', channel.breaker)}
              ${card('Errors (1 h)', `${channel.last_hour.errors} / ${channel.last_hour.creates}`)}
              ${card('p50 / p99 ms', fmtLatency(channel))}
            </div>
            <p>
              Family <strong>${channel.family}</strong>; models
              ${channel.models ? channel.models.join(', ') : 'all of its family'}.
              ${channel.healthy ? '' : html`<span class="error">Unhealthy: ${channel.unhealthy_reason}</span>`}
            </p>
            <p class="wrap">Last error: ${fmtLastError(channel)}</p>
            ${
              can('operator')
                ? html`<p>
                    <button
                      class="secondary"
                      onClick=${() => patch({ enabled: !channel.enabled }, channel.enabled ? 'Channel disabled.' : 'Channel enabled.')}
                    >
                      ${channel.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button class="secondary" onClick=${() => check(id)}>Check credential</button>
                  </p>`
                : null
            }
            ${
              can('admin') && tuning
                ? html`<form class="inline" onSubmit=${saveTuning}>
                      <label
                        >Weight
                        <input
                          name="weight"
                          inputmode="numeric"
                          required
                          value=${tuning.weight}
                          onInput=${(e) => setTuning({ ...tuning, weight: e.currentTarget.value })}
                      /></label>
                      <label
                        >Priority
                        <input
                          name="priority"
                          inputmode="numeric"
                          required
                          value=${tuning.priority}
                          onInput=${(e) => setTuning({ ...tuning, priority: e.currentTarget.value })}
                      /></label>
                      <button type="submit">Save weight and priority</button>
                    </form>
                    <p class="muted">
                      Weight: its share of new tasks within its tier (0 takes none). Priority: higher tiers take new
                      tasks first.
                    </p>`
                : null
            }`
        : null
    }
    <${AuditEntries} filters=${{ target_type: 'channel', target_id: id }} title="Audit trail" refresh=${changes} />
  </section>`;
}

function Shell({ onSignOut }) {
  const [page, id, params] = useRoute();
  const [me] = usePolling(() => api('/admin/v1/me'), 0, []);
  useEffect(() => {
    document.title = `${PAGES.find(([p]) => p === page)?.[1] ?? 'Console'} · Gateway console`;
  }, [page]);
  const body =
    page === 'tasks' && id
      ? html`<${TaskDetail} id=${id} />`
      : page === 'tasks'
        ? html`<${Tasks} initial=${params} key=${JSON.stringify(params)} />`
        : page === 'accounts' && id
          ? html`<${AccountDetail} id=${id} />`
          : page === 'accounts'
            ? html`<${Accounts} />`
            : page === 'usage'
              ? html`<${Usage} />`
              : page === 'prices'
                ? html`<${Prices} />`
                : page === 'channels' && id
                  ? html`<${ChannelDetail} id=${id} />`
                  : page === 'channels'
                    ? html`<${Channels} />`
                    : page === 'audit'
                      ? html`<${Audit} initial=${params} key=${JSON.stringify(params)} />`
                      : html`<${Overview} />`;
  return html`<${Me.Provider} value=${me}><div>
    <header class="top">
      <strong>Gateway console</strong>
      <nav aria-label="Console">
        ${PAGES.map(([p, label]) => html`<a href=${`#/${p}`} aria-current=${p === page ? 'page' : undefined}>${label}</a>`)}
        <a href="/docs">API docs</a>
      </nav>
      ${me ? html`<span class="whoami" data-testid="whoami">${me.name} · <strong>${me.role}</strong></span>` : null}
      <button type="button" class="secondary" onClick=${onSignOut}>Sign out</button>
    </header>
    <main>${body}</main>
  </div></${Me.Provider}>`;
}

function App() {
  const [signedIn, setSignedIn] = useState(Boolean(sessionStorage.getItem(TOKEN_KEY) || ssoCsrf()));
  const [reason, setReason] = useState(null);
  onSignedOut = (why) => {
    sessionStorage.removeItem(TOKEN_KEY);
    document.cookie = 'gw_console_csrf=; Max-Age=0; Path=/; SameSite=Strict';
    setReason(why);
    setSignedIn(false);
  };
  const signOut = async () => {
    const csrf = ssoCsrf();
    if (csrf && !sessionStorage.getItem(TOKEN_KEY))
      await fetch('/console/sso/logout', { method: 'POST', headers: { 'X-CSRF-Token': csrf } }).catch(() => {});
    onSignedOut(null);
  };
  return signedIn
    ? html`<${Shell} onSignOut=${signOut} />`
    : html`<${SignIn}
        reason=${reason}
        onSignedIn=${() => {
          setReason(null);
          setSignedIn(true);
        }}
      />`;
}

render(html`<${App} />`, document.getElementById('app'));
