import { DataSource } from 'typeorm';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';

/**
 * The usage log for operators: filters, pagination and CSV export. The log rows are written
 * straight through the app's repository at fixed times (settlement writing them is covered by
 * the billing-* suites), so every filter boundary can be pinned down.
 */
const T0 = Date.UTC(2026, 0, 1); // 2026-01-01T00:00:00Z
const HOUR = 3_600_000;
const A = 'acct_usage_a';
const B = 'acct_usage_b';
const BULK = 'acct_usage_bulk';

interface Row {
  id: string;
  account_id: string;
  model: string;
  amount: number;
  created_at: string;
  [key: string]: unknown;
}

/** Row i: accounts A/A/B repeating, models alternating, one hour apart from T0, a usage that needs CSV quoting. */
function usageRow(i: number, accountId = i % 3 === 2 ? B : A): UsageRecordEntity {
  return {
    id: `use_${accountId}_${String(i).padStart(3, '0')}`,
    taskId: `task_${accountId}_${i}`,
    accountId,
    model: i % 2 === 0 ? 'wx2.7-r2v' : 'vdq3',
    action: i % 2 === 0 ? 'r2v' : 'reference2video',
    amount: 1000 + i,
    priceVersion: 1 + (i % 2),
    usage: { kind: 'test', durationSeconds: i, note: 'comma, "quote"' },
    createdAt: T0 + i * HOUR,
  };
}

/** A strict RFC 4180 reader, to prove the export parses back to the same values. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

describe('admin usage log: GET /admin/v1/usage', () => {
  let gw: Harness;
  const list = (query: string) => gw.admin.get(`/admin/v1/usage${query}`);
  const ids = (items: Row[]) => items.map((r) => r.id);
  const expectedIds = (keep: (row: UsageRecordEntity) => boolean, rows: UsageRecordEntity[]) =>
    rows
      .filter(keep)
      .sort((x, y) => y.createdAt - x.createdAt)
      .map((r) => r.id);
  const rows = Array.from({ length: 12 }, (_, i) => usageRow(i));

  beforeAll(async () => {
    gw = await startGateway();
    const repo = gw.app.get(DataSource).getRepository(UsageRecordEntity);
    await repo.insert(rows as never);
    await repo.insert(Array.from({ length: 55 }, (_, i) => usageRow(i, BULK)) as never);
  });
  afterAll(() => gw.close());

  it('needs the admin token', async () => {
    await gw.http().get('/admin/v1/usage').expect(401);
  });

  it('answers {items, total} for an account, newest first, in the documented row shape', async () => {
    const res = await list(`?account_id=${A}`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'total']);
    expect(res.body.total).toBe(8);
    expect(ids(res.body.items)).toEqual(expectedIds((r) => r.accountId === A, rows));
    expect(res.body.items[0]).toEqual({
      id: 'use_acct_usage_a_010',
      task_id: 'task_acct_usage_a_10',
      account_id: A,
      model: 'wx2.7-r2v',
      action: 'r2v',
      amount: 1010,
      price_version: 1,
      usage: { kind: 'test', durationSeconds: 10, note: 'comma, "quote"' },
      created_at: '2026-01-01T10:00:00.000Z',
    });
  });

  it('filters by model and by time: from inclusive, to exclusive, as ISO 8601 or Unix seconds', async () => {
    const byModel = await list(`?account_id=${A}&model=vdq3`).expect(200);
    expect(ids(byModel.body.items)).toEqual(expectedIds((r) => r.accountId === A && r.model === 'vdq3', rows));

    const from = T0 + 3 * HOUR;
    const to = T0 + 9 * HOUR;
    const window = expectedIds((r) => r.createdAt >= from && r.createdAt < to, rows);
    const iso = await list(
      `?from=2026-01-01T03:00:00Z&to=${encodeURIComponent('2026-01-01T10:00:00+01:00')}&model=`,
    ).expect(200);
    expect(ids(iso.body.items).filter((id) => !id.includes(BULK))).toEqual(window);
    const unix = await list(`?from=${from / 1000}&to=${to / 1000}&account_id=${B}`).expect(200);
    expect(ids(unix.body.items)).toEqual(
      expectedIds((r) => r.accountId === B && r.createdAt >= from && r.createdAt < to, rows),
    );
    expect(unix.body.total).toBe(unix.body.items.length);

    const none = await list(`?account_id=acct_nobody`).expect(200);
    expect(none.body).toEqual({ items: [], total: 0 });
  });

  it('pages with page/page_size (default 50), without overlap, and keeps the total past the last page', async () => {
    const first = await list(`?account_id=${BULK}`).expect(200);
    expect(first.body.total).toBe(55);
    expect(first.body.items).toHaveLength(50);

    const seen: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const res = await list(`?account_id=${BULK}&page=${page}&page_size=10`).expect(200);
      expect(res.body.total).toBe(55);
      expect(res.body.items).toHaveLength(page < 6 ? 10 : 5);
      seen.push(...ids(res.body.items));
    }
    expect(seen).toEqual(ids((await list(`?account_id=${BULK}&page_size=500`).expect(200)).body.items));
    expect(new Set(seen).size).toBe(55);
    expect((await list(`?account_id=${BULK}&page=7&page_size=10`).expect(200)).body).toEqual({ items: [], total: 55 });
  });

  it.each([
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['page_size=0', 'page_size'],
    ['page_size=501', 'page_size'],
    ['page_size=ten', 'page_size'],
    ['from=yesterday', 'from'],
    ['from=2026-02-30', 'from'],
    ['to=-5', 'to'],
    ['from=2026-01-02&to=2026-01-01', 'to'],
    ['format=xml', 'format'],
    ['model=a&model=b', 'model'],
    ['colour=red', 'colour'],
  ])('400 for %s, naming the parameter', async (query, param) => {
    const res = await list(`?${query}`).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('exports the same rows as CSV for Accept: text/csv or format=csv, quoted per RFC 4180', async () => {
    const json = await list(`?account_id=${A}&page_size=5&page=2`).expect(200);
    const viaAccept = await gw
      .http()
      .get(`/admin/v1/usage?account_id=${A}&page_size=5&page=2`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Accept', 'text/csv')
      .expect(200);
    const viaParam = await list(`?account_id=${A}&page_size=5&page=2&format=csv`).expect(200);

    for (const res of [viaAccept, viaParam]) {
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['x-total-count']).toBe('8');
      expect(res.text).toBe(viaAccept.text);
    }
    const [header, ...lines] = parseCsv(viaAccept.text);
    expect(header).toEqual([
      'id',
      'task_id',
      'account_id',
      'model',
      'action',
      'amount',
      'price_version',
      'usage',
      'created_at',
    ]);
    expect(lines).toEqual(
      (json.body.items as Row[]).map((row) =>
        header.map((column) => (typeof row[column] === 'object' ? JSON.stringify(row[column]) : String(row[column]))),
      ),
    );
    expect(lines).toHaveLength(3);
    // The usage JSON holds commas and quotes, so it must be a quoted field with doubled quotes.
    expect(viaAccept.text).toContain('"{""kind"":""test"",""durationSeconds"":');

    const empty = await list(`?account_id=acct_nobody&format=csv`).expect(200);
    expect(empty.text).toBe(`${header.join(',')}\r\n`);
  });

  it('answers JSON for Accept: application/json or */*, and format=json wins over Accept', async () => {
    const star = await gw
      .http()
      .get(`/admin/v1/usage?account_id=${B}`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Accept', '*/*')
      .expect(200);
    expect(star.headers['content-type']).toMatch(/^application\/json/);
    const forced = await gw
      .http()
      .get(`/admin/v1/usage?account_id=${B}&format=json`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Accept', 'text/csv')
      .expect(200);
    expect(forced.body.total).toBe(4);
  });
});
