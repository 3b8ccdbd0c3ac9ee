import { GatewayError } from '../../../platform/errors';
import { parseKlPresetsQuery, validateKlVoiceCreate, validateKlVoiceDelete } from './kl-voice.rules';

function paramOf(fn: () => unknown): string | null | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError)
      return error.status === 400 || error.status === 404 ? error.param : `status ${error.status}`;
    throw error;
  }
  return undefined;
}

describe('validateKlVoiceCreate', () => {
  const url = 'https://example.com/a/voice.mp3';

  it('accepts a voice URL and names its source', () => {
    expect(validateKlVoiceCreate({ voice_name: 'n', voice_url: url }).source).toEqual({ kind: 'url', url });
  });

  it('maps a gateway video ID to its task and index', () => {
    expect(validateKlVoiceCreate({ voice_name: 'n', video_id: 'video_01abc_2' }).source).toEqual({
      kind: 'video',
      taskId: 'task_01abc',
      index: 2,
    });
  });

  it('counts voice_name as the upstream does, in UTF-16 code units', () => {
    const accepted = (name: string) => paramOf(() => validateKlVoiceCreate({ voice_name: name, voice_url: url }));
    expect(accepted('n'.repeat(20))).toBeUndefined();
    expect(accepted('旁'.repeat(20))).toBeUndefined();
    expect(accepted('😀'.repeat(10))).toBeUndefined();
    expect(accepted('n'.repeat(21))).toBe('voice_name');
    expect(accepted('旁'.repeat(21))).toBe('voice_name');
    expect(accepted('😀'.repeat(20))).toBe('voice_name');
    expect(accepted(`${'n'.repeat(19)}😀`)).toBe('voice_name');
    // A joined emoji counts every unit: one family emoji is 11.
    expect(accepted('👩‍👩‍👧‍👦')).toBeUndefined();
    expect(accepted('👩‍👩‍👧‍👦'.repeat(2))).toBe('voice_name');
  });

  it.each([
    [{ voice_url: url }, 'voice_name'],
    [{ voice_name: '', voice_url: url }, 'voice_name'],
    [{ voice_name: 'n' }, 'voice_url'],
    [{ voice_name: 'n', voice_url: url, video_id: 'video_a_0' }, 'video_id'],
    [{ voice_name: 'n', voice_url: '' }, 'voice_url'],
    [{ voice_name: 'n', voice_url: 'http://127.0.0.1:8080/v.mp3' }, 'voice_url'],
    [{ voice_name: 'n', voice_url: 'file:///etc/passwd' }, 'voice_url'],
    [{ voice_name: 'n', voice_url: 'https://example.com/v.flac' }, 'voice_url'],
    [{ voice_name: 'n', video_id: 'someone-elses-upstream-id' }, 'video_id'],
    [{ voice_name: 'n', voice_url: url, external_task_id: 'x'.repeat(256) }, 'external_task_id'],
    [{ voice_name: 'n', voice_url: url, other: true }, 'other'],
    [{ voice_name: 'n', voice_url: url, model_name: 3 }, 'model_name'],
  ])('refuses %j naming %s', (body, param) => {
    expect(paramOf(() => validateKlVoiceCreate(body))).toBe(param);
  });

  it('allows the extensions case-insensitively and URLs without one', () => {
    for (const ext of ['mp3', 'WAV', 'mp4', 'Mov'])
      expect(
        paramOf(() => validateKlVoiceCreate({ voice_name: 'n', voice_url: `https://x.test/v.${ext}?s=1` })),
      ).toBeUndefined();
    expect(
      paramOf(() => validateKlVoiceCreate({ voice_name: 'n', voice_url: 'https://x.test/stream' })),
    ).toBeUndefined();
  });
});

describe('validateKlVoiceDelete', () => {
  it('needs voice_id and nothing unknown', () => {
    expect(validateKlVoiceDelete({ voice_id: 'voice_a_0' }).voice_id).toBe('voice_a_0');
    expect(paramOf(() => validateKlVoiceDelete({}))).toBe('voice_id');
    expect(paramOf(() => validateKlVoiceDelete({ voice_id: 'v', x: 1 }))).toBe('x');
  });
});

describe('parseKlPresetsQuery', () => {
  it('presets take pageNum and pageSize only', () => {
    expect(parseKlPresetsQuery({ pageNum: '3', pageSize: '500' })).toEqual({ page: 3, pageSize: 500 });
    expect(paramOf(() => parseKlPresetsQuery({ 'filter.model': 'x' }))).toBe('filter.model');
  });
});
