import { EntityManager } from 'typeorm';
import { ManualClock } from '../../platform/time/clock';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AuditTrail } from '../audit/audit.service';
import { AuditChange, ChangeOrigin } from '../audit/audit.types';
import { OperatorDirectory } from './operator-directory';
import { hashOperatorToken } from './operator-token';
import { OperatorEntity } from './operator.entity';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';

const OWNER: ChangeOrigin = { actor: { id: 'bootstrap', name: 'owner', role: 'owner' }, requestId: 'req_1', ip: null };

/** OperatorsService over in-memory rows; each transaction's writes and audit entries are kept apart. */
function setup() {
  const rows = new Map<string, OperatorEntity>();
  const events: string[] = [];
  const tx = { name: 'tx' } as unknown as EntityManager;
  const operators = {
    findById: async (id: string) => (rows.has(id) ? { ...rows.get(id)! } : null),
    insert: async (m: EntityManager, op: OperatorEntity) => {
      expect(m).toBe(tx);
      rows.set(op.id, { ...op });
      events.push('write');
    },
    save: async (m: EntityManager, op: OperatorEntity) => {
      expect(m).toBe(tx);
      rows.set(op.id, { ...op });
      events.push('write');
    },
    all: async () => [...rows.values()],
  };
  const audit: AuditChange[] = [];
  const trail = {
    record: async (m: EntityManager, _origin: ChangeOrigin, change: AuditChange) => {
      expect(m).toBe(tx);
      audit.push(change);
      events.push(`audit ${change.action}`);
    },
  };
  const transactions = {
    run: async <T>(work: (m: EntityManager) => Promise<T>) => {
      events.push('begin');
      const result = await work(tx);
      events.push('commit');
      return result;
    },
  };
  const directory = { invalidate: async () => void events.push('invalidate') };
  const service = new OperatorsService(
    operators as unknown as OperatorsRepository,
    directory as unknown as OperatorDirectory,
    transactions as unknown as TransactionRunner,
    trail as unknown as AuditTrail,
    new ManualClock(),
  );
  return { service, rows, audit, events };
}

describe('OperatorsService', () => {
  it('adds an operator: the token is returned once and only its hash is stored, with its audit entry', async () => {
    const { service, rows, audit, events } = setup();
    const { operator, token } = await service.create({ name: 'Dana', role: 'viewer' }, OWNER);
    expect(token).toMatch(/^vgo_[\w-]{43}$/);
    const stored = rows.get(operator.id)!;
    expect(stored).toMatchObject({ name: 'Dana', role: 'viewer', disabled: false, tokenPrefix: token.slice(0, 12) });
    expect(stored.tokenHash).toBe(hashOperatorToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(audit).toEqual([
      {
        action: 'operator.create',
        target: { type: 'operator', id: operator.id },
        before: null,
        after: { id: operator.id, name: 'Dana', role: 'viewer', disabled: false, token_prefix: token.slice(0, 12) },
      },
    ]);
    expect(events).toEqual(['begin', 'write', 'audit operator.create', 'commit']);
  });

  it('changes a role or disables, in one transaction with its entry, then tells every instance', async () => {
    const { service, audit, events } = setup();
    const { operator } = await service.create({ name: 'Dana', role: 'viewer' }, OWNER);
    events.length = 0;
    const changed = await service.update(operator.id, { role: 'admin', disabled: true }, OWNER);
    expect(changed).toMatchObject({ role: 'admin', disabled: true });
    expect(audit[1]).toMatchObject({
      action: 'operator.update',
      before: { role: 'viewer', disabled: false },
      after: { role: 'admin', disabled: true },
    });
    expect(events).toEqual(['begin', 'write', 'audit operator.update', 'commit', 'invalidate']);
  });

  it('rotates a token: a new hash and prefix, the old token no longer matches, and every instance is told', async () => {
    const { service, rows, audit, events } = setup();
    const first = await service.create({ name: 'Dana', role: 'viewer' }, OWNER);
    const second = await service.rotateToken(first.operator.id, OWNER);
    expect(second.token).not.toBe(first.token);
    expect(rows.get(first.operator.id)!.tokenHash).toBe(hashOperatorToken(second.token));
    expect(audit[1]).toMatchObject({
      action: 'operator.token_rotate',
      before: { token_prefix: first.token.slice(0, 12) },
      after: { token_prefix: second.token.slice(0, 12) },
    });
    expect(JSON.stringify(audit)).not.toContain(second.token);
    expect(events.at(-1)).toBe('invalidate');
  });

  it('answers 404 for an unknown operator and records nothing', async () => {
    const { service, audit, events } = setup();
    await expect(service.update('op_none', { role: 'admin' }, OWNER)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await expect(service.rotateToken('op_none', OWNER)).rejects.toMatchObject({ status: 404 });
    expect(audit).toEqual([]);
    expect(events).not.toContain('invalidate');
  });
});
