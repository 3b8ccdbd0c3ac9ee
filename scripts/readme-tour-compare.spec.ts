import { compareOutput, globMatches, IncompleteAnswer, parseAnswer } from './readme-tour-compare';

/** The README's answer text checked against one command's output: null when they match. */
const check = (answer: string, output: unknown): string | null =>
  compareOutput(parseAnswer(answer).node, typeof output === 'string' ? output : JSON.stringify(output));

describe('README tour answers', () => {
  const query = {
    request_id: '8f1c',
    output: { task_id: 'task_01abc', task_status: 'SUCCEEDED', submit_time: '2026-11-25 10:00:00.000' },
    usage: { duration: 5, size: '1280*720' },
  };

  it('matches an answer whose varying parts are … wildcards', () => {
    expect(
      check(
        '{"request_id":"…","output":{"task_id":"task_01…","task_status":"SUCCEEDED","submit_time":"…"},"usage":{"duration":5,…}}',
        query,
      ),
    ).toBeNull();
  });

  it('fails on a differing value, naming where', () => {
    expect(check('{"request_id":"…","output":{"task_id":"task_01…","task_status":"PENDING",…},…}', query)).toBe(
      '$.output.task_status: expected "PENDING", got "SUCCEEDED"',
    );
    expect(check('{"balance":94800,"held":0}', { balance: 74750, held: 0 })).toMatch(/^\$\.balance: expected 94800/);
  });

  it('fails on a missing field, and on a field the answer does not allow', () => {
    expect(check('{"request_id":"…","output":{…},"usage":{…},"code":"…"}', query)).toBe('$.code: missing');
    expect(check('{"request_id":"…","output":{…}}', query)).toMatch(/^\$: unexpected field\(s\) usage/);
  });

  it('fails on a wrong status shape: an error object where a task was shown, a string for a number', () => {
    const error = { code: 'InvalidParameter', message: 'bad', request_id: 'r', error: { code: 'invalid_request' } };
    expect(check('{"request_id":"…","output":{"task_status":"SUCCEEDED",…},…}', error)).toBe('$.output: missing');
    expect(check('{"output":{"task_status":"SUCCEEDED",…},…}', { output: [] })).toBe(
      '$.output: expected an object, got []',
    );
    expect(check('{"duration":5}', { duration: '5' })).toBe('$.duration: expected 5, got "5"');
    expect(check('{"a":1}', 'not json')).toBe('expected JSON, got not json');
  });

  it('reads … in arrays as any run of elements, and exact arrays as exact', () => {
    const timeline = [{ event: 'created' }, { event: 'hold' }, { event: 'release' }, { event: 'charge' }];
    expect(check('[{"event":"created"},…,{"event":"charge"}]', timeline)).toBeNull();
    expect(check('[…,{"event":"hold"},…]', timeline)).toBeNull();
    expect(check('[…,{"event":"refund"},…]', timeline)).toMatch(/^\$: no element arrangement matches/);
    expect(check('[{"event":"created"},{"event":"hold"}]', timeline)).toBe('$: expected 2 element(s), got 4');
  });

  it('takes glob numbers, noted wildcards, and ignores the prose after the answer', () => {
    expect(check('{"created_at":1795…}', { created_at: 1795649040 })).toBeNull();
    expect(check('{"created_at":1795…}', { created_at: 1764000000 })).toMatch(/expected 1795…/);
    expect(check('{"data":{…same as the query…}}', { data: { code: 0 } })).toBeNull();
    expect(check('{"balance":94800,"held":0}            5.2 credits charged', { balance: 94800, held: 0 })).toBeNull();
    expect(parseAnswer('{"a":1} (see "Kept results")').prose).toBe('(see "Kept results")');
  });

  it('compares a one-word text answer with the whole output', () => {
    expect(check('task_01…', 'task_01m8a\n')).toBeNull();
    expect(check('vgw_…', 'null\n')).toBe('expected vgw_…, got null');
    expect(check('vgw_…', '')).toBe('expected vgw_…, got (no output)');
  });

  it('asks for the next line while the JSON is open, and rejects what is not JSON', () => {
    expect(() => parseAnswer('{"a":{"b":1},')).toThrow(IncompleteAnswer);
    expect(() => parseAnswer('{"a":nope}')).toThrow(/not a JSON value: nope/);
  });

  it('globs strings with … as any run of characters, the rest literal', () => {
    expect(globMatches('http://localhost:3000/results/…', 'http://localhost:3000/results/abc.def')).toBe(true);
    expect(globMatches('a.b…', 'axb-c')).toBe(false);
    expect(globMatches('…-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')).toBe(true);
  });
});
