'use strict';
/**
 * What keeping one small result file costs in CPU, by the way it is written: a new directory, a
 * 2 KB file written under a temporary name, then renamed (what the fs result store does for each
 * file in a directory of its own). Compares fs.promises with a recursive mkdir, fs.promises with a
 * plain one, fs's callback functions with a plain one, and the synchronous calls; then callback and
 * synchronous writes into one of 256 shared directories that the writer remembers having made, so
 * that no file pays for a mkdir. 8 files at a time, process CPU per file.
 *
 *   node bench/fs-writes.js [--files 3000] [--dir /tmp]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const FILES = Number(opt('files', 3000));
const root = fs.mkdtempSync(path.join(opt('dir', os.tmpdir()), 'fs-writes-'));
const bytes = Buffer.alloc(2048, 1);
const cb = { mkdir: promisify(fs.mkdir), writeFile: promisify(fs.writeFile), rename: promisify(fs.rename) };
const ignoreExists = (error) => {
  if (error.code !== 'EEXIST') throw error;
};

/** Shared directories already made (the ways that remember them make each once). */
const made = new Set();
async function sharedDirectory(dir, mkdir) {
  const shard = path.join(path.dirname(dir), `shard_${path.basename(dir).slice(-2)}`);
  if (!made.has(shard)) {
    await mkdir(shard).catch(ignoreExists);
    made.add(shard);
  }
  return path.join(shard, path.basename(dir));
}

const WAYS = {
  'fs.promises, recursive mkdir': async (dir, file) => {
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(`${file}.part`, bytes);
    await fs.promises.rename(`${file}.part`, file);
  },
  'fs.promises, plain mkdir': async (dir, file) => {
    await fs.promises.mkdir(dir).catch(ignoreExists);
    await fs.promises.writeFile(`${file}.part`, bytes);
    await fs.promises.rename(`${file}.part`, file);
  },
  'callbacks, plain mkdir': async (dir, file) => {
    await cb.mkdir(dir).catch(ignoreExists);
    await cb.writeFile(`${file}.part`, bytes);
    await cb.rename(`${file}.part`, file);
  },
  'synchronous (blocks the event loop)': async (dir, file) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${file}.part`, bytes);
    fs.renameSync(`${file}.part`, file);
  },
  'callbacks, shared directory made once': async (dir) => {
    const file = await sharedDirectory(dir, cb.mkdir);
    await cb.writeFile(`${file}.part`, bytes);
    await cb.rename(`${file}.part`, file);
  },
  'synchronous, shared directory made once': async (dir) => {
    const file = await sharedDirectory(dir, async (d) => fs.mkdirSync(d));
    fs.writeFileSync(`${file}.part`, bytes);
    fs.renameSync(`${file}.part`, file);
  },
};

async function measure(name, write, round) {
  const base = path.join(root, `${round}-${Object.keys(WAYS).indexOf(name)}`);
  fs.mkdirSync(base);
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(
    [...Array(8)].map(async () => {
      while (next < FILES) {
        const i = next++;
        const dir = path.join(base, `task_${i}`);
        await write(dir, path.join(dir, 'v0'));
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / FILES;
}

(async () => {
  const results = Object.fromEntries(Object.keys(WAYS).map((name) => [name, []]));
  for (let round = 0; round < 3; round++)
    for (const [name, write] of Object.entries(WAYS)) results[name].push(await measure(name, write, round));
  const { median } = require('./lib');
  const base = median(results['fs.promises, recursive mkdir']);
  console.log(
    `| ${FILES} files, 8 at a time | CPU µs per file (median of 3) | against fs.promises + recursive mkdir |`,
  );
  console.log('| --- | --- | --- |');
  for (const [name, xs] of Object.entries(results))
    console.log(
      `| ${name} | ${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')}) | ${(median(xs) / base).toFixed(2)} |`,
    );
  fs.rmSync(root, { recursive: true, force: true });
})();
