import { parseTimeParam, parseTimeValue } from './time-param';

describe('parseTimeParam (admin from/to)', () => {
  it.each([
    ['1793527200', Date.UTC(2026, 10, 1, 10)],
    ['0', 0],
    ['2026-11-01', Date.UTC(2026, 10, 1)],
    ['2026-11-01T10:00:00Z', Date.UTC(2026, 10, 1, 10)],
    ['2026-11-01T10:00:00z', Date.UTC(2026, 10, 1, 10)],
    ['2026-11-01T10:00', Date.UTC(2026, 10, 1, 10)],
    ['2026-11-01 10:00:00', Date.UTC(2026, 10, 1, 10)],
    ['2026-11-01T10:00:00.5Z', Date.UTC(2026, 10, 1, 10, 0, 0, 500)],
    ['2026-11-01T10:00:00.123456Z', Date.UTC(2026, 10, 1, 10, 0, 0, 123)],
    ['2026-11-01T10:00:00+01:00', Date.UTC(2026, 10, 1, 9)],
    ['2026-11-01T10:00:00-23:59', Date.UTC(2026, 10, 2, 9, 59)],
    ['2026-11-01T10:00:00-0230', Date.UTC(2026, 10, 1, 12, 30)],
    ['2026-11-01T10:00:00+05', Date.UTC(2026, 10, 1, 5)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
  ])('%s', (text, expected) => {
    expect(parseTimeParam(text)).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '2026-02-30',
    '2025-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-11-01T24:00:00Z',
    '2026-11-01T10:60Z',
    '-5',
    '1.5',
    '17935272000000',
    '2026-11-01T10:00:00+01:00:00',
    '2026-11-01T10:00:00+99:00',
    '2026-11-01T10:00:00-24:00',
    '2026-11-01T10:00:00+01:60',
    '2026-11-1',
  ])('rejects %j', (text) => {
    expect(parseTimeParam(text)).toBeNull();
  });
});

describe('parseTimeValue (a time in a JSON body)', () => {
  it('takes the text forms and whole Unix seconds as a number', () => {
    expect(parseTimeValue('2031-01-01T00:00:00.000Z')).toBe(Date.UTC(2031, 0, 1));
    expect(parseTimeValue(4102444800)).toBe(Date.UTC(2100, 0, 1));
    expect(parseTimeValue(0)).toBe(0);
  });

  it.each([[2 ** 53], [1e12], [1e308], [-1], [1.5], [NaN], [['2031-01-01']], [true], [null], [{}], ['Jan 1 2031']])(
    'refuses %j, which no response could print as a date',
    (value) => {
      expect(parseTimeValue(value)).toBeNull();
    },
  );
});
