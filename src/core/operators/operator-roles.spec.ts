import { GatewayError } from '../../platform/errors';
import { OPERATOR_ROLES, hasRole, requireRole, seesSecrets } from './operator-roles';

describe('operator roles', () => {
  it('each role may do what every weaker role may, and nothing stronger', () => {
    const table = OPERATOR_ROLES.map((role) => OPERATOR_ROLES.filter((needed) => hasRole(role, needed)));
    expect(table).toEqual([
      ['viewer'],
      ['viewer', 'operator'],
      ['viewer', 'operator', 'admin'],
      ['viewer', 'operator', 'admin', 'owner'],
    ]);
  });

  it('refuses with 403 permission_denied naming the role needed (and the field that needs it)', () => {
    expect(() => requireRole('admin', 'admin')).not.toThrow();
    const refusal = (() => {
      try {
        requireRole('operator', 'admin', 'weight');
      } catch (error) {
        return error as GatewayError;
      }
    })();
    expect(refusal).toMatchObject({ status: 403, code: 'permission_denied', param: 'weight' });
    expect(refusal?.message).toBe("This needs the 'admin' role (to change weight); your role is 'operator'.");
  });

  it('only a viewer is kept from secrets', () => {
    expect(OPERATOR_ROLES.filter(seesSecrets)).toEqual(['operator', 'admin', 'owner']);
  });
});
