import { inlineParams } from './hot-sql';

/**
 * Statements sent with a PostgreSQL COMMIT take their values as literals (the simple query protocol has no parameters).
 */
describe('inlineParams', () => {
  // As pg's Client#escapeLiteral: quotes doubled, and E'' with doubled backslashes when there are any.
  const client = {
    escapeLiteral: (value: string): string => {
      const quoted = `'${value.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
      return value.includes('\\') ? ` E${quoted}` : quoted;
    },
  };

  it('writes whole numbers, strings, booleans and null as literals, in placeholder order', () => {
    expect(
      inlineParams(
        'INSERT INTO "t" ("a", "b", "c", "d", "e") VALUES (?, ?, ?, ?, ?)',
        [42, "it's", null, true, false],
        client,
      ),
    ).toBe(`INSERT INTO "t" ("a", "b", "c", "d", "e") VALUES (42, 'it''s', NULL, TRUE, FALSE)`);
  });

  it('never reads a question mark inside a value as a placeholder', () => {
    expect(inlineParams('UPDATE "t" SET "a" = ? WHERE "id" = ?', ['why?', 'x'], client)).toBe(
      `UPDATE "t" SET "a" = 'why?' WHERE "id" = 'x'`,
    );
  });

  it.each([
    ['a fraction', 1.5],
    ['a number beyond 2^53', 2 ** 60],
    ['a Date', new Date(0)],
    ['a Buffer', Buffer.from('x')],
    ['undefined', undefined],
  ])('refuses %s rather than guess how to write it', (_what, value) => {
    expect(() => inlineParams('SELECT ?', [value], client)).toThrow(/whole numbers, strings, booleans and null only/);
  });

  it('refuses values that do not match the placeholders', () => {
    expect(() => inlineParams('SELECT ?, ?', [1, 2, 3], client)).toThrow(/3 values for 2 placeholders/);
    expect(() => inlineParams('SELECT ?, ?', [1], client)).toThrow();
  });
});
