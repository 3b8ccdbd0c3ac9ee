import { applyModelMap } from './model-map';

const channel = {
  id: 'c',
  family: 'vd' as const,
  baseUrl: 'http://x',
  apiKey: 'sk-live-123456',
  modelMap: { vdq3: 'viduq3-pro', 'kl-v1-6': 'kling-v1-6' },
};

describe('applyModelMap', () => {
  it('renames mapped models in `model` and `model_name` without touching the input', () => {
    const body = { model: 'vdq3', model_name: 'kl-v1-6', prompt: 'p' };
    expect(applyModelMap(body, channel)).toEqual({ model: 'viduq3-pro', model_name: 'kling-v1-6', prompt: 'p' });
    expect(body.model).toBe('vdq3');
  });

  it('passes unmapped names, and inherited object keys, through', () => {
    expect(applyModelMap({ model: 'vdq1' }, channel)).toEqual({ model: 'vdq1' });
    expect(applyModelMap({ model: 'toString' }, channel)).toEqual({ model: 'toString' });
    expect(applyModelMap({ model: 'vdq3' }, { ...channel, modelMap: undefined })).toEqual({ model: 'vdq3' });
  });
});
