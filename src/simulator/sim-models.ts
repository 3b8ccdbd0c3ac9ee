import { SimFamily } from './sim-types';

/**
 * The models each simulated upstream knows: public name -> the vendor's own name. The simulator
 * accepts both: its built-in channels send public names as they are, while a gateway pointed at
 * `npm run simulator` through `UPSTREAM_*` variables sends the vendor names of the default model map.
 * Kept here, apart from config/upstream-models.json, because the simulator plays the vendor.
 */
const MODELS: Readonly<Record<SimFamily, Readonly<Record<string, string>>>> = {
  kl: { 'kl-v1': 'kling-v1', 'kl-v1-6': 'kling-v1-6' },
  ax: {
    'wx2.7-r2v': 'wan2.7-r2v',
    'wx2.7-r2v-2026-06-12': 'wan2.7-r2v-2026-06-12',
    'wx2.6-r2v': 'wan2.6-r2v',
    'wx2.6-r2v-flash': 'wan2.6-r2v-flash',
  },
  vd: {
    'vdq3-mix': 'viduq3-mix',
    'vdq3-turbo': 'viduq3-turbo',
    vdq3: 'viduq3',
    'vdq2-pro': 'viduq2-pro',
    vdq2: 'viduq2',
    vdq1: 'viduq1',
    'vd2.0': 'vidu2.0',
  },
};

/** The public model names of a family (what the built-in channels send). */
export function simPublicModels(family: SimFamily): string[] {
  return Object.keys(MODELS[family]);
}

/** The public name for a public or vendor model name; undefined for a model this upstream does not know. */
export function simModelName(family: SimFamily, name: string): string | undefined {
  const models = MODELS[family];
  if (Object.prototype.hasOwnProperty.call(models, name)) return name;
  return Object.keys(models).find((publicName) => models[publicName] === name);
}
