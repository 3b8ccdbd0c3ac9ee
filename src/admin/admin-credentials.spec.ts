import type { OperatorDirectory } from '../core/operators/operator-directory';
import { AdminCredentials, BOOTSTRAP_OWNER } from './admin-credentials';

describe('AdminCredentials', () => {
  const dana = { id: 'op_1', name: 'Dana', role: 'viewer' as const };
  const asked: string[] = [];
  const directory = {
    resolve: async (token: string) => {
      asked.push(token);
      return token === 'vgo_dana' ? dana : null;
    },
  } as unknown as OperatorDirectory;
  const credentials = new AdminCredentials('bootstrap-token-0123456789', directory);

  it('ADMIN_TOKEN is the bootstrap owner, without a lookup', async () => {
    expect(await credentials.resolve('bootstrap-token-0123456789')).toBe(BOOTSTRAP_OWNER);
    expect(BOOTSTRAP_OWNER.role).toBe('owner');
    expect(asked).toEqual([]);
  });

  it('any other token is an operator’s, or no one’s (whatever its length)', async () => {
    expect(await credentials.resolve('vgo_dana')).toBe(dana);
    expect(await credentials.resolve('x')).toBeNull();
    expect(await credentials.resolve('bootstrap-token-0123456789-and-more')).toBeNull();
    expect(asked).toEqual(['vgo_dana', 'x', 'bootstrap-token-0123456789-and-more']);
  });
});
