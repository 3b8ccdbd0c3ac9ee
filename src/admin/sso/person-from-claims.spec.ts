import { SignInRefused, personFromClaims } from './person-from-claims';

describe('personFromClaims', () => {
  const rules = { claim: 'gateway_role' };
  const issuer = 'https://id.example.com';

  it.each([
    ['a role name', 'operator', 'operator'],
    ['a list: the strongest role counts', ['viewer', 'staff', 'admin'], 'admin'],
    ['a list with the owner', ['owner', 'viewer'], 'owner'],
  ])('takes the role from %s', (_k, claim, role) => {
    expect(personFromClaims(issuer, { sub: 'u1', name: 'Dana', gateway_role: claim }, rules).role).toBe(role);
  });

  it.each([
    ['no claim', undefined],
    ['an unknown value', 'superuser'],
    ['a list of unknown values', ['staff']],
    ['a role in the wrong case', 'Admin'],
  ])('refuses %s, unless a default role is set', (_k, claim) => {
    expect(() => personFromClaims(issuer, { sub: 'u1', gateway_role: claim }, rules)).toThrow(SignInRefused);
    expect(personFromClaims(issuer, { sub: 'u1', gateway_role: claim }, { ...rules, defaultRole: 'viewer' }).role).toBe(
      'viewer',
    );
  });

  it('refuses a sign-in without a subject', () => {
    expect(() => personFromClaims(issuer, { name: 'x', gateway_role: 'owner' }, rules)).toThrow(/no subject/);
  });

  it('files a person under one ID per issuer and subject, and names them as the issuer does', () => {
    const a = personFromClaims(
      issuer,
      { sub: 'u1', name: 'Dana Scully', email: 'dana@example.com', gateway_role: 'viewer' },
      rules,
    );
    const again = personFromClaims(issuer, { sub: 'u1', name: 'D. Scully', gateway_role: 'admin' }, rules);
    const elsewhere = personFromClaims('https://other.example.com', { sub: 'u1', gateway_role: 'viewer' }, rules);
    expect(a.id).toMatch(/^sso_[0-9a-f]{24}$/);
    expect(again.id).toBe(a.id);
    expect(elsewhere.id).not.toBe(a.id);
    expect(a.name).toBe('Dana Scully <dana@example.com>');
    expect(personFromClaims(issuer, { sub: 'u2', email: 'fox@example.com', gateway_role: 'viewer' }, rules).name).toBe(
      'fox@example.com',
    );
    expect(personFromClaims(issuer, { sub: 'u3', gateway_role: 'viewer' }, rules).name).toBe('u3');
  });

  it('reads the role from the claim it is told to', () => {
    expect(personFromClaims(issuer, { sub: 'u1', groups: ['operator'] }, { claim: 'groups' }).role).toBe('operator');
  });
});
