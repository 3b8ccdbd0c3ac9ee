'use strict';
/**
 * Builds a variant of the production build for before/after comparisons: a copy of dist/ in
 * bench/.ab/<name>/ where the given source files are replaced by their version at a git revision
 * (transpiled with the project's compiler options). Run the benchmark against it with
 * `node bench/run.js --main bench/.ab/<name>/src/main.js`.
 *
 *   node bench/build-variant.js --name before --rev HEAD --files src/platform/logging/logging.module.ts
 *
 * Files that do not exist at the revision are removed from the copy.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const name = opt('name', 'before');
const rev = opt('rev', 'HEAD');
const files = String(opt('files', '')).split(',').filter(Boolean);
if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error('--name: letters, digits, . _ - only');

const out = path.join(__dirname, '.ab', name);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.cpSync(path.join(ROOT, 'dist'), out, { recursive: true });

const { config } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
for (const file of files) {
  const compiled = path.join(out, file.replace(/\.ts$/, '.js'));
  let source;
  try {
    source = execFileSync('git', ['show', `${rev}:${file}`], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    fs.rmSync(compiled, { force: true });
    process.stdout.write(`${file}: not in ${rev}, removed\n`);
    continue;
  }
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { ...options, sourceMap: false },
    fileName: file,
  });
  fs.mkdirSync(path.dirname(compiled), { recursive: true });
  fs.writeFileSync(compiled, outputText);
  process.stdout.write(`${file}: ${rev} version\n`);
}
process.stdout.write(`variant at ${path.relative(ROOT, out)}/src/main.js\n`);
