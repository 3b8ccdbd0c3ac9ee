import { findJsonSyntaxProblem } from './json-syntax';

describe('findJsonSyntaxProblem', () => {
  it.each(['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "x\\n\\u00e9"]} ', '"text"', '0'])(
    'finds nothing wrong in %s',
    (text) => {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(findJsonSyntaxProblem(text)).toBeNull();
    },
  );

  it.each([
    ['{"a":', 'expected a value, found the end of the body', 1, 6],
    ['{"a":}', "expected a value, found '}'", 1, 6],
    ['{"a":1,}', "expected a double-quoted property name, found '}'", 1, 8],
    ["{'a':1}", "expected a double-quoted property name, found '''", 1, 2],
    ['{"a" 1}', "expected ':' after a property name, found '1'", 1, 6],
    ['[1 2]', "expected ',' or ']' after an array element, found '2'", 1, 4],
    ['{"a":1\n "b":2}', "expected ',' or '}' after a property value, found '\"'", 2, 2],
    ['{"a":"x\ty"}', 'unescaped character U+0009 in a string', 1, 8],
    ['{"a":"\\q"}', 'bad escape \\q in a string', 1, 8],
    ['{"a":"\\u12"}', 'bad \\u escape in a string', 1, 7],
    ['{"a":"open', 'unterminated string', 1, 11],
    ['{"a":01}', "expected ',' or '}' after a property value, found '1'", 1, 7],
    ['{"a":1.}', "expected a digit after '.', found '}'", 1, 8],
    ['{"a":-}', "expected a digit, found '}'", 1, 7],
    ['{"a":nul}', "expected 'null', found '}'", 1, 9],
    ['{"a":1} x', "unexpected 'x' after the JSON value", 1, 9],
    ['\u00a0{}', 'expected a value, found character U+00A0', 1, 1],
  ])('says what is wrong with %j and where', (text, problem, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxProblem(text)).toMatchObject({ problem, line, column });
  });

  it('stops at the nesting limit instead of recursing through any depth', () => {
    const deep = '['.repeat(100_000);
    expect(findJsonSyntaxProblem(deep)?.problem).toMatch(/nested deeper than \d+ levels/);
  });
});
