import { ManualClock } from '../../platform/time/clock';
import { PrincipalService } from '../accounts/principal.service';
import { OperatorDirectory } from './operator-directory';
import { hashOperatorToken } from './operator-token';
import { OperatorEntity } from './operator.entity';
import { OperatorsRepository } from './operators.repository';

/** OperatorDirectory over an in-memory operators table and the real principal cache's announcements. */
function setup() {
  const row: Partial<OperatorEntity> = {
    id: 'op_1',
    name: 'Dana',
    role: 'admin',
    disabled: false,
    tokenHash: hashOperatorToken('vgo_good'),
  };
  const lookups = { count: 0, gate: null as Promise<void> | null };
  const operators = {
    findByHash: async (hash: string) => {
      lookups.count++;
      const snapshot = hash === row.tokenHash ? { ...row } : null;
      await lookups.gate;
      return snapshot;
    },
  };
  const clock = new ManualClock();
  const principals = new PrincipalService({} as never, {} as never, {} as never, clock);
  const directory = new OperatorDirectory(operators as unknown as OperatorsRepository, principals, clock);
  directory.onModuleInit();
  return { directory, row, lookups, clock };
}

describe('OperatorDirectory', () => {
  it('resolves a token to its operator; an unknown or disabled one to null', async () => {
    const { directory, row } = setup();
    expect(await directory.resolve('vgo_good')).toEqual({ id: 'op_1', name: 'Dana', role: 'admin' });
    expect(await directory.resolve('vgo_bad')).toBeNull();
    row.disabled = true;
    await directory.invalidate();
    expect(await directory.resolve('vgo_good')).toBeNull();
  });

  it('looks a token up once per few seconds; a change drops the cache at once', async () => {
    const { directory, row, lookups, clock } = setup();
    await directory.resolve('vgo_good');
    await directory.resolve('vgo_good');
    expect(lookups.count).toBe(1);
    clock.advance(6000);
    await directory.resolve('vgo_good');
    expect(lookups.count).toBe(2);
    row.role = 'viewer';
    await directory.invalidate();
    expect(await directory.resolve('vgo_good')).toMatchObject({ role: 'viewer' });
  });

  it('never caches what a lookup read before a change: the next request reads again', async () => {
    const { directory, row, lookups } = setup();
    let release!: () => void;
    lookups.gate = new Promise((r) => (release = r));
    const pending = directory.resolve('vgo_good');
    // The lookup has read the row; the change commits and is announced before it answers.
    row.tokenHash = hashOperatorToken('vgo_new');
    await directory.invalidate();
    release();
    expect(await pending).toMatchObject({ id: 'op_1' });
    lookups.gate = null;
    expect(await directory.resolve('vgo_good')).toBeNull();
  });
});
