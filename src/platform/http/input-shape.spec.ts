import { MAX_BODY_DEPTH, bodyShapeProblem, urlHasNul } from './input-shape';

describe('bodyShapeProblem', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };

  it('accepts ordinary bodies, up to the depth limit', () => {
    expect(
      bodyShapeProblem({ model: 'x', input: { media: [{ type: 'reference_image', url: 'https://e.x/a.png' }] } }),
    ).toBeNull();
    expect(bodyShapeProblem(nested(MAX_BODY_DEPTH))).toBeNull();
  });

  it('refuses a body nested deeper than any request of the API, without recursion', () => {
    expect(bodyShapeProblem(nested(MAX_BODY_DEPTH + 1))).toMatchObject({ param: null });
    expect(bodyShapeProblem(nested(100_000))).toMatchObject({ message: expect.stringMatching(/nested deeper/) });
  });

  it('refuses NUL characters in strings, naming the field, and in field names', () => {
    expect(bodyShapeProblem({ input: { prompt: 'a\u0000b' } })).toEqual({
      message: 'input.prompt must not contain NUL characters.',
      param: 'input.prompt',
    });
    expect(bodyShapeProblem({ images: ['ok', 'x\u0000'] })).toMatchObject({ param: 'images[1]' });
    expect(bodyShapeProblem({ 'a\u0000': 1 })).toMatchObject({
      message: 'Field names must not contain NUL characters.',
    });
  });
});

describe('urlHasNul', () => {
  it.each([
    ['/ax/api/v1/tasks/%00', true],
    ['/ax/api/v1/tasks/a%00b', true],
    ['/vd/ent/v2/tasks/x/creations?y=%00', true],
    ['/ax/api/v1/tasks/task_01', false],
    ['/ax/api/v1/tasks/%2500', false],
  ])('%s -> %s', (url, expected) => {
    expect(urlHasNul(url)).toBe(expected);
  });
});
