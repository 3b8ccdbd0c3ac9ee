import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { extractBlocks, splitCommands, strayFiles } from './readme-tour';

const fence = '```';
const readme = [
  '# Title',
  `${fence}bash`,
  'echo outside   # -> never run',
  fence,
  '## Quick tour (curl)',
  `${fence}bash`,
  'X=$(echo \'{"a":1,"b":2}\')',
  'echo $X',
  '# -> {"a":1,',
  '#     "b":2}   prose after the answer',
  '# a comment, then a command continued over two lines',
  'echo one \\',
  '  two        # -> one…',
  'until true; do',
  '  sleep 1',
  'done',
  fence,
  '<!-- tour: skip (deploys) -->',
  '',
  `${fence}bash`,
  'docker compose up',
  fence,
  `${fence}js`,
  'console.log(1)',
  fence,
  '## Endpoints',
  '### Family X',
  `${fence}bash`,
  'echo x',
  fence,
  '## Deploying',
  `${fence}bash`,
  'echo deploy',
  fence,
].join('\n');

describe('README tour extraction', () => {
  const blocks = extractBlocks(readme, ['Quick tour (curl)', 'Endpoints']);

  it("takes the bash blocks of the page's sections only, with their marker and heading", () => {
    expect(blocks.map((b) => [b.line, b.heading, b.marker])).toEqual([
      [7, 'Quick tour (curl)', null],
      [21, 'Quick tour (curl)', 'skip (deploys)'],
      [29, 'Family X', null],
    ]);
  });

  it('takes every bash block of a page whose sections are null, naming the page', () => {
    const all = extractBlocks(readme, null, 'docs/api.md');
    expect(all.map((b) => [b.file, b.line, b.heading])).toEqual([
      ['docs/api.md', 3, null],
      ['docs/api.md', 7, 'Quick tour (curl)'],
      ['docs/api.md', 21, 'Quick tour (curl)'],
      ['docs/api.md', 29, 'Family X'],
      ['docs/api.md', 33, 'Deploying'],
    ]);
    expect(() => splitCommands({ ...all[0], lines: ['# -> x'] })).toThrow(/^docs\/api\.md:3: an answer/);
  });

  it('splits a block into commands and pins each answer to the command before it', () => {
    const steps = splitCommands(blocks[0]);
    expect(steps.map((s) => [s.line, s.command])).toEqual([
      [7, 'X=$(echo \'{"a":1,"b":2}\')'],
      [8, 'echo $X'],
      [12, 'echo one \\\n  two        # -> one…'],
      [14, 'until true; do\n  sleep 1\ndone'],
    ]);
    expect(steps.map((s) => s.expected ?? null)).toEqual([
      null,
      {
        kind: 'object',
        open: false,
        members: [
          ['a', { kind: 'literal', value: 1 }],
          ['b', { kind: 'literal', value: 2 }],
        ],
      },
      { kind: 'text', pattern: 'one…' },
      null,
    ]);
  });

  it('refuses an answer with no command before it, and two answers for one command', () => {
    expect(() => splitCommands({ line: 1, lines: ['# -> x'] })).toThrow(/no command before it/);
    expect(() => splitCommands({ line: 1, lines: ['echo a   # -> a', '# -> b'] })).toThrow(/a second answer/);
  });

  it("names what a block left in the tour's working directory besides its links and data/", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tour-stray-'));
    try {
      for (const name of ['dist', 'config', 'examples', 'data']) mkdirSync(join(dir, name));
      expect(strayFiles(dir)).toEqual([]);
      writeFileSync(join(dir, 'cat.mp4'), '');
      writeFileSync(join(dir, 'usage.csv'), '');
      expect(strayFiles(dir).sort()).toEqual(['cat.mp4', 'usage.csv']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
