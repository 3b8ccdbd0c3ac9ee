'use strict';
/**
 * CPU per validation of the ax and vd create bodies (those of bench/cost.js), with the
 * class-validator metadata cache (fast paths on) and without (FAST_PATHS=false), alternated.
 *
 *   npm run build && node bench/validation-cache.js
 */
require('reflect-metadata');
const path = require('node:path');

const root = path.join(__dirname, '../dist/src');
const { setFastPaths } = require(path.join(root, 'platform/config/fast-paths.js'));
const { validateDto } = require(path.join(root, 'platform/validation/validate-dto.js'));
const { AxNewCreateBodyDto } = require(path.join(root, 'families/ax/reference-video/ax-create.dto.js'));
const { VdSubjectModeRequestDto } = require(path.join(root, 'families/vd/reference-video/vd-create.dto.js'));

const BODIES = {
  b: [
    AxNewCreateBodyDto,
    {
      model: 'wx2.7-r2v',
      input: {
        prompt: 'Image 1 walks on the beach at sunset',
        media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }],
      },
      parameters: { resolution: '720P', duration: 5 },
    },
  ],
  c: [
    VdSubjectModeRequestDto,
    { model: 'vdq3', subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }], prompt: '@cat plays' },
  ],
};
const N = 20_000;
const ROUNDS = 7;

function perValidation(cls, body) {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) validateDto(cls, body);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / N;
}

const { median } = require('./lib');
for (const [family, [cls, body]] of Object.entries(BODIES)) {
  const runs = { on: [], off: [] };
  for (let round = -2; round < ROUNDS; round++) {
    for (const mode of ['on', 'off']) {
      setFastPaths(mode === 'on');
      const us = perValidation(cls, body);
      if (round >= 0) runs[mode].push(us);
    }
  }
  setFastPaths(true);
  for (const mode of ['on', 'off'])
    process.stdout.write(
      `family ${family.toUpperCase()} create body, cache ${mode}: ${median(runs[mode]).toFixed(1)} µs (${runs[mode].map((v) => v.toFixed(1)).join(', ')})\n`,
    );
}
