import { checkFields, field, httpUrl, oneOf, shown, valueAt } from './field-checks';

describe('valueAt', () => {
  const payload = { data: { task_result: { voices: [{ voice_id: 'v1' }] } }, list: [[1, 2]] };

  it('follows dotted paths with indexes, and is undefined past any gap', () => {
    expect(valueAt(payload, 'data.task_result.voices[0].voice_id')).toBe('v1');
    expect(valueAt(payload, 'list[0][1]')).toBe(2);
    expect(valueAt(payload, 'data.task_result.voices[1].voice_id')).toBeUndefined();
    expect(valueAt(payload, 'data.nothing.deeper')).toBeUndefined();
    expect(valueAt('text', 'data')).toBeUndefined();
  });
});

describe('checkFields', () => {
  it('judges each field: ok, MISMATCH, and info for an optional field that is absent', () => {
    const rows = checkFields('ax', 'result', { output: { task_status: 'RUNNING' } }, [
      field('output.task_status', oneOf('RUNNING')),
      field('output.video_url', httpUrl),
      field('output.scheduled_time', httpUrl, true),
    ]);
    expect(rows.map((row) => [row.field, row.seen, row.verdict])).toEqual([
      ['output.task_status', '"RUNNING"', 'ok'],
      ['output.video_url', '(absent)', 'MISMATCH'],
      ['output.scheduled_time', '(absent)', 'info'],
    ]);
  });
});

describe('shown', () => {
  it('drops signed query strings from URLs and cuts long values', () => {
    expect(shown('https://cdn.example/v.mp4?Expires=1&Signature=secret')).toBe('"https://cdn.example/v.mp4?…"');
    expect(shown('x'.repeat(200))).toHaveLength(72);
    expect(shown({ a: 1 })).toBe('{"a":1}');
  });
});
