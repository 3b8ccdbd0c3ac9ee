import { readFileSync } from 'fs';
import { join } from 'path';
import { AUDIT_ACTIONS } from '../core/audit/audit.types';
import { OPERATOR_ROLES } from '../core/operators/operator-roles';

/**
 * The console is static files with no build step, so it carries its own copies of two server lists
 * (the audit filter's actions, the roles it hides controls by); this keeps the copies equal to the
 * server's, in the same order.
 */
describe('the console’s copies of server lists', () => {
  const source = readFileSync(join(__dirname, 'assets', 'app.js'), 'utf8');

  /** The string array a top-level `const NAME = [...]` of app.js holds. */
  function listIn(name: string): string[] {
    const found = new RegExp(`^const ${name} = \\[([^\\]]*)\\];`, 'm').exec(source);
    if (!found) throw new Error(`app.js declares no const ${name} = [...]`);
    return [...found[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
  }

  it('offers every audit action the API filters by', () => {
    expect(listIn('AUDIT_ACTIONS')).toEqual([...AUDIT_ACTIONS]);
  });

  it('knows the operator roles, weakest first', () => {
    expect(listIn('ROLES')).toEqual([...OPERATOR_ROLES]);
  });
});
