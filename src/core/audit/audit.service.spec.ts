import { EntityManager } from 'typeorm';
import { ManualClock } from '../../platform/time/clock';
import { ChainHead, ChainedContent, GENESIS_HASH, entryHash } from './audit-chain';
import { AuditEntryEntity } from './audit-entry.entity';
import { AuditRepository } from './audit.repository';
import { AuditTrail } from './audit.service';
import { ChangeOrigin } from './audit.types';

/** The audit tables in memory: the rows and the chain head, appended as the real repository does. */
class MemoryAudit {
  rows: AuditEntryEntity[] = [];
  headRow: ChainHead = { seq: 0, hash: GENESIS_HASH };

  async append(_tx: EntityManager, entry: Omit<ChainedContent, 'seq' | 'prevHash'>): Promise<AuditEntryEntity> {
    const content: ChainedContent = { ...entry, seq: this.headRow.seq + 1, prevHash: this.headRow.hash };
    const row = Object.assign(new AuditEntryEntity(), content, { hash: entryHash(content) });
    this.rows.push(row);
    this.headRow = { seq: row.seq, hash: row.hash };
    return row;
  }
  async chainAfter(afterSeq: number, lastSeq: number, take: number): Promise<AuditEntryEntity[]> {
    return this.rows.filter((r) => r.seq > afterSeq && r.seq <= lastSeq).slice(0, take);
  }
  async head(): Promise<ChainHead> {
    return { ...this.headRow };
  }
}

const ORIGIN: ChangeOrigin = { actor: { id: 'op_1', name: 'Dana', role: 'admin' }, requestId: 'req_1', ip: '10.0.0.1' };
const tx = {} as EntityManager;

function setup() {
  const memory = new MemoryAudit();
  const clock = new ManualClock();
  const trail = new AuditTrail(memory as unknown as AuditRepository, clock);
  return { memory, trail, clock };
}

async function threeChanges(trail: AuditTrail): Promise<void> {
  for (const name of ['a', 'b', 'c'])
    await trail.record(tx, ORIGIN, {
      action: 'account.update',
      target: { type: 'account', id: 'acct_1' },
      before: { name: 'old' },
      after: { name },
    });
}

describe('AuditTrail', () => {
  it('records who, what, on what, before and after, from where; each entry linked to the one before', async () => {
    const { memory, trail, clock } = setup();
    await threeChanges(trail);
    expect(memory.rows[0]).toMatchObject({
      seq: 1,
      id: expect.stringMatching(/^aud_/),
      createdAt: clock.nowMs(),
      actorId: 'op_1',
      actorName: 'Dana',
      actorRole: 'admin',
      action: 'account.update',
      targetType: 'account',
      targetId: 'acct_1',
      before: '{"name":"old"}',
      after: '{"name":"a"}',
      requestId: 'req_1',
      ip: '10.0.0.1',
      prevHash: GENESIS_HASH,
    });
    expect(memory.rows.map((r) => r.prevHash)).toEqual([GENESIS_HASH, memory.rows[0].hash, memory.rows[1].hash]);
  });

  it('never keeps a secret: secret-named fields are masked at any depth, key order is fixed', async () => {
    const { memory, trail } = setup();
    await trail.record(tx, ORIGIN, {
      action: 'operator.create',
      target: { type: 'operator', id: 'op_2' },
      before: null,
      after: {
        z: 1,
        webhookSecret: 'whsec_x',
        nested: [{ token_hash: 'h', token: 't', key: 'vgw_x', api_key: 'k', password: 'p' }],
        token_prefix: 'vgo_abc',
      },
    });
    expect(memory.rows[0].before).toBeNull();
    expect(memory.rows[0].after).toBe(
      '{"nested":[{"api_key":"***","key":"***","password":"***","token":"***","token_hash":"***"}],' +
        '"token_prefix":"vgo_abc","webhookSecret":"***","z":1}',
    );
  });

  it('verifies an untouched chain', async () => {
    const { memory, trail } = setup();
    await threeChanges(trail);
    expect(await trail.verify()).toEqual({
      ok: true,
      entries_checked: 3,
      problems: [],
      head: { seq: 3, hash: memory.rows[2].hash },
    });
  });

  it('finds an entry changed, with or without its hash recomputed', async () => {
    const { memory, trail } = setup();
    await threeChanges(trail);
    memory.rows[1].after = '{"name":"forged"}';
    expect((await trail.verify()).problems).toEqual([
      { seq: 2, entry_id: memory.rows[1].id, problem: 'its content does not match its hash' },
    ]);
    memory.rows[1].hash = entryHash(memory.rows[1]);
    expect((await trail.verify()).problems).toEqual([
      { seq: 3, entry_id: memory.rows[2].id, problem: 'does not link to the entry before it (that entry was changed)' },
    ]);
  });

  it('finds entries removed: in the middle, and at the end (the chain head remembers the last)', async () => {
    const { memory, trail } = setup();
    await threeChanges(trail);
    await threeChanges(trail);
    memory.rows.splice(1, 2);
    expect((await trail.verify()).problems).toEqual([
      { seq: 2, entry_id: null, problem: 'entries 2 to 3 are missing' },
    ]);
    memory.rows.pop();
    expect((await trail.verify()).problems).toEqual([
      { seq: 2, entry_id: null, problem: 'entries 2 to 3 are missing' },
      { seq: 6, entry_id: null, problem: 'entry 6 is missing' },
    ]);
  });

  it('against a head recorded earlier: finds the newest entries cut with the head rewound, or the chain rewritten', async () => {
    const { memory, trail } = setup();
    await threeChanges(trail);
    const recorded = (await trail.verify()).head;
    await threeChanges(trail);
    expect((await trail.verify(recorded)).ok).toBe(true);

    memory.rows[2].hash = 'e'.repeat(64);
    expect((await trail.verify(recorded)).problems).toContainEqual({
      seq: 3,
      entry_id: memory.rows[2].id,
      problem: 'differs from the head recorded earlier (the chain was rewritten)',
    });

    const cut = setup();
    await threeChanges(cut.trail);
    const before = (await cut.trail.verify()).head;
    cut.memory.rows.pop();
    cut.memory.headRow = { seq: 2, hash: cut.memory.rows[1].hash };
    expect((await cut.trail.verify()).ok).toBe(true);
    expect((await cut.trail.verify(before)).problems).toEqual([
      { seq: 3, entry_id: null, problem: expect.stringContaining('the newest entries were removed') },
    ]);
  });

  it('finds a chain head moved back over removed entries it no longer matches', async () => {
    const { memory, trail } = setup();
    await threeChanges(trail);
    memory.rows.pop();
    memory.headRow = { seq: 2, hash: 'f'.repeat(64) };
    expect((await trail.verify()).problems).toEqual([
      { seq: 2, entry_id: null, problem: 'the chain head does not match the last entry' },
    ]);
  });
});
