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
              ${card('Spend today (UTC)', fmtNum(data.spend), 'c-spend')}
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
              <td><a href=${`#/accounts/${t.account_id}`}>${t.account_id}</a></td>
              <td>${fmtTime(t.created_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function Tasks({ initial }) {
  const [filters, setFilters] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const [shown, setShown] = useState(50);
  const [data, error] = usePolling(() => api(`/admin/v1/tasks${query({ ...filters, limit: shown })}`), 2000, [
    filters,
    shown,
  ]);
  const field = (name, label) =>
    html`<label
      >${label}
      <input
        name=${name}
        value=${draft[name] ?? ''}
        onInput=${(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
    /></label>`;
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Tasks</h1>
    <form
      class="filters"
      role="search"
      aria-label="Filter tasks"
      onSubmit=${(e) => {
        e.preventDefault();
        setShown(50);
        setFilters({ ...draft });
      }}
    >
      ${field('account_id', 'Account ID')} ${field('family', 'Family')} ${field('model', 'Model')}
      <label
        >Status
        <select
          name="status"
          value=${draft.status ?? ''}
          onChange=${(e) => setDraft({ ...draft, status: e.currentTarget.value })}
        >
          <option value="">any</option>
          ${['submitting', 'active', 'succeeded', 'failed', 'cancelled', 'rejected'].map((s) => html`<option value=${s}>${s}</option>`)}
        </select></label
      >
      ${field('external_task_id', 'External task ID')} ${field('upstream_task_id', 'Upstream task ID')}
      <button type="submit">Apply</button>
    </form>
    <p class="muted" aria-live="polite">Refreshes every 2 seconds.</p>
    <${ErrorBox} error=${error} />
    ${
      data
        ? html`<${TaskTable} items=${data.items} /> ${
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
  const [data, error] = usePolling(() => api(`/admin/v1/tasks/${encodeURIComponent(id)}`), 2000, [id]);
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
    ['Charge', `${fmtNum(data.final_charge ?? data.estimated_charge)} (${data.billing_state})`],
    ['Trace ID', data.trace_id ?? '—'],
    ['Failure', data.failure_code ? `${data.failure_code}: ${data.failure_reason ?? ''}` : '—'],
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
        ${
          data.videos.length
            ? data.videos.map((v) => html`<${VideoPlayer} url=${v.url} slot=${v.slot} />`)
            : html`<p class="muted">No video yet.</p>`
        }
      </div>
    </div>
    <h2>Timeline</h2>
    <ol class="timeline">
      ${data.timeline.map(
        (e) =>
          html`<li>
            <time datetime=${e.at}>${fmtTime(e.at)}</time
            ><strong>${e.event}</strong> ${e.detail ? html` <span class="muted">${e.detail}</span>` : null}
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
                <td>${fmtNum(e.amount)}</td>
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
    <${AuditEntries} filters=${{ target_type: 'task', target_id: id }} title="Audit trail" />
  </section>`;
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
      const account = await api('/admin/v1/accounts', {
        method: 'POST',
        body: { name, balance: Number(balance) || 0 },
      });
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
                >Opening balance
                <input
                  name="balance"
                  type="number"
                  min="0"
                  step="1"
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
                <td>${fmtNum(a.balance)}</td>
                <td>${fmtNum(a.held)}</td>
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

function AccountDetail({ id }) {
  const [account, setAccount] = useState(null);
  const [keys, setKeys] = useState([]);
  const [error, setError] = useState(null);
  const [issued, setIssued] = useState(null);
  const [copied, setCopied] = useState(false);
  const [topUp, setTopUp] = useState({ delta: '', reason: '' });
  const [grants, setGrants] = useState('');
  const [keyForm, setKeyForm] = useState({ name: '', models: '' });
  const [changes, setChanges] = useState(0);
  const reload = useCallback(async () => {
    try {
      const [a, k] = await Promise.all([
        api(`/admin/v1/accounts/${encodeURIComponent(id)}`),
        api(`/admin/v1/accounts/${encodeURIComponent(id)}/keys`),
      ]);
      setAccount(a);
      setKeys(k.items);
      setGrants(a.models.map((m) => m.model).join(', '));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [id]);
  useEffect(() => void reload(), [reload]);
  const act = (fn) => async (e) => {
    e?.preventDefault();
    try {
      await fn();
      setChanges((n) => n + 1);
      await reload();
    } catch (err) {
      setError(err);
    }
  };
  const list = (text) => text.split(/[\s,]+/).filter(Boolean);
  const can = useCan();
  if (!account)
    return html`<section>
      <h1 id="page-title">Account</h1>
      <${ErrorBox} error=${error} />
    </section>`;
  return html`<section aria-labelledby="page-title">
    <p><a href="#/accounts">← Accounts</a></p>
    <h1 id="page-title">${account.name}</h1>
    <${ErrorBox} error=${error} />
    <div class="cards">
      <div class="card">
        <div class="label">Balance</div>
        <div class="value" data-testid="balance">${fmtNum(account.balance)}</div>
      </div>
      <div class="card">
        <div class="label">Held</div>
        <div class="value">${fmtNum(account.held)}</div>
      </div>
      <div class="card">
        <div class="label">In flight</div>
        <div class="value">${account.in_flight_tasks}</div>
      </div>
    </div>
    <p class="muted">${account.id} · <a href=${`#/tasks?account_id=${account.id}`}>tasks</a></p>
    ${
      can('admin')
        ? html`<div class="row">
            <div class="panel">
              <h2>Top up</h2>
              <form
                class="inline"
                onSubmit=${act(async () => {
                  await api(`/admin/v1/accounts/${id}/balance`, {
                    method: 'POST',
                    body: { delta: Number(topUp.delta), reason: topUp.reason },
                  });
                  setTopUp({ delta: '', reason: '' });
                })}
              >
                <label
                  >Amount
                  <input
                    name="delta"
                    type="number"
                    step="1"
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
            </div>
            <div class="panel">
              <h2>Models (grants)</h2>
              <form
                class="inline"
                onSubmit=${act(() => api(`/admin/v1/accounts/${id}/models`, { method: 'PUT', body: { models: list(grants).map((model) => ({ model })) } }))}
              >
                <label
                  >Models, comma-separated
                  <input name="models" value=${grants} onInput=${(e) => setGrants(e.currentTarget.value)}
                /></label>
                <button type="submit">Save models</button>
              </form>
            </div>
          </div>`
        : null
    }
    <div class="panel">
      <h2>API keys</h2>
      ${
        can('admin')
          ? html`<form
              class="inline"
              onSubmit=${act(async () => {
                const models = list(keyForm.models);
                const key = await api(`/admin/v1/accounts/${id}/keys`, {
                  method: 'POST',
                  body: { name: keyForm.name || undefined, models: models.length ? models : undefined },
                });
                setIssued(key);
                setCopied(false);
                setKeyForm({ name: '', models: '' });
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
                >Only these models (optional)
                <input
                  name="key-models"
                  value=${keyForm.models}
                  onInput=${(e) => setKeyForm({ ...keyForm, models: e.currentTarget.value })}
              /></label>
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
                  <td>${k.models ? k.models.join(', ') : 'all'}</td>
                  <td>${fmtTime(k.created_at)}</td>
                  <td>${fmtTime(k.last_used_at)}</td>
                  <td>${k.revoked_at ? fmtTime(k.revoked_at) : '—'}</td>
                  <td>
                    ${k.revoked_at || !can('admin') ? null : html`<button class="danger" aria-label=${`Revoke key ${k.prefix}`} onClick=${act(() => api(`/admin/v1/keys/${k.id}`, { method: 'DELETE' }))}>Revoke</button>`}
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
      <text x=${pad} y=${pad - 12} font-size="12" fill="#5b6270">max ${fmtNum(max)}</text>
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
              <title>${`${d} ${m}: ${row.amount} (${row.tasks} tasks)`}</title></rect
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
                        <td>${fmtNum(r.amount)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
        : html`<p class="muted">Loading…</p>`
    }
  </section>`;
}

function Prices() {
  const [table, setTable] = useState(null);
  const [text, setText] = useState('');
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(null);
  const load = useCallback(async () => {
    try {
      const t = await api('/admin/v1/prices');
      setTable(t);
      setText(JSON.stringify(t, null, 2));
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void load(), [load]);
  const can = useCan();
  const save = async (e) => {
    e.preventDefault();
    setSaved(null);
    try {
      const body = JSON.parse(text);
      const next = await api('/admin/v1/prices', { method: 'PUT', body });
      setTable(next);
      setText(JSON.stringify(next, null, 2));
      setSaved(`Saved as version ${next.version}.`);
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title">Prices</h1>
    <${ErrorBox} error=${error} />
    ${
      table
        ? html`<p>
              Version <strong data-testid="price-version">${table.version}</strong>, unit ${table.unit}
              (${table.currency_unit}).
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
                      html`<tr>
                        <td>${m}</td>
                        <td class="wrap"><code>${JSON.stringify(p)}</code></td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            ${
              can('admin')
                ? html`<h2>Change</h2>
                    <form onSubmit=${save}>
                      <label for="price-json"
                        >Price table (JSON); saved as a new version used by every later task
                        <textarea
                          id="price-json"
                          spellcheck="false"
                          value=${text}
                          onInput=${(e) => setText(e.currentTarget.value)}
                        ></textarea>
                      </label>
                      <p>
                        <button type="submit">Save prices</button>
                        ${saved ? html`<span role="status">${saved}</span>` : null}
                      </p>
                    </form>`
                : null
            }
            <${AuditEntries} filters=${{ target_type: 'prices' }} title="Changes" />`
        : html`<p class="muted">Loading…</p>`
    }
  </section>`;
}

/** What a change did: one line per field whose value differs, `field: before → after` (`field: value` when new). */
function changeLines(before, after) {
  const b = before ?? {};
  const a = after ?? {};
  const show = (v) => (v === undefined ? '—' : JSON.stringify(v));
  return [...new Set([...Object.keys(b), ...Object.keys(a)])]
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => (k in b ? `${k}: ${show(b[k])} → ${show(a[k])}` : `${k}: ${show(a[k])}`));
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

/** The upstream channels: an operator turns one on or off; its page shows its figures, weight and changes. */
function Channels() {
  const can = useCan();
  const [data, error, reload] = usePolling(() => api('/admin/v1/channels'), 5000, []);
  const [actionError, setActionError] = useState(null);
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
    <div class="scroll">
      <table>
        <caption class="sr-only">
          Upstream channels
        </caption>
        <thead>
          <tr>
            <th>Channel</th>
            <th>Family</th>
            <th>Enabled</th>
            <th>Weight</th>
            <th>In flight</th>
            <th>Breaker</th>
            <th><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${(data?.data ?? []).map(
            (c) =>
              html`<tr data-channel-id=${c.id}>
                <td><a href=${`#/channels/${c.id}`}>${c.id}</a></td>
                <td>${c.family}</td>
                <td>${c.enabled ? 'yes' : 'no'}</td>
                <td>${c.weight}</td>
                <td>${c.in_flight}</td>
                <td>${c.breaker}</td>
                <td>
                  ${
                    can('operator')
                      ? html`<button class="secondary" onClick=${() => toggle(c)}>
                          ${c.enabled ? 'Disable' : 'Enable'}
                        </button>`
                      : null
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

function ChannelDetail({ id }) {
  const can = useCan();
  const [data, error, reload] = usePolling(() => api('/admin/v1/channels'), 5000, []);
  const [weight, setWeight] = useState('');
  const [actionError, setActionError] = useState(null);
  const [changes, setChanges] = useState(0);
  const channel = data?.data.find((c) => c.id === id);
  const patch = async (body) => {
    try {
      await api(`/admin/v1/channels/${encodeURIComponent(id)}`, { method: 'PATCH', body });
      setActionError(null);
      setChanges((n) => n + 1);
      reload();
    } catch (err) {
      setActionError(err);
    }
  };
  return html`<section aria-labelledby="page-title">
    <p><a href="#/channels">← Channels</a></p>
    <h1 id="page-title">${id}</h1>
    <${ErrorBox} error=${error ?? actionError} />
    ${
      channel
        ? html`<div class="cards">
              <div class="card">
                <div class="label">Enabled</div>
                <div class="value">${channel.enabled ? 'yes' : 'no'}</div>
              </div>
              <div class="card">
                <div class="label">Weight</div>
                <div class="value">${channel.weight}</div>
              </div>
              <div class="card">
                <div class="label">In flight</div>
                <div class="value">${channel.in_flight}</div>
              </div>
            </div>
            ${
              can('operator')
                ? html`<p>
                    <button class="secondary" onClick=${() => patch({ enabled: !channel.enabled })}>
                      ${channel.enabled ? 'Disable' : 'Enable'}
                    </button>
                  </p>`
                : null
            }
            ${
              can('admin')
                ? html`<form
                    class="inline"
                    onSubmit=${(e) => {
                      e.preventDefault();
                      void patch({ weight: Number(weight) });
                    }}
                  >
                    <label
                      >Weight
                      <input
                        name="weight"
                        type="number"
                        min="0"
                        step="1"
                        required
                        value=${weight}
                        onInput=${(e) => setWeight(e.currentTarget.value)}
                    /></label>
                    <button type="submit">Set weight</button>
                  </form>`
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
