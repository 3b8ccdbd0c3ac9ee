#!/usr/bin/env node
// Runs the examples of the README and of docs/api.md against `npm start` and fails when an answer
// differs from what the page shows. Usage:
// npm run docs:tour [-- --no-build] [--jq-stand-in] [--verbose] [--keep] [--readme=<file>] [--api=<file>]
//
// - Builds (`npm run build`), then starts the gateway with package.json's `start` command in a
//   temporary directory (its own data/: database, admin token, kept results) on a free port, with
//   no settings but PORT: SQLite, in-process stores, the built-in simulator.
// - A block that leaves a file in that directory (the repository, for a reader) fails: examples
//   write their files to a temporary directory.
// - Runs the ```bash blocks of the README's section "Quick tour (curl)", then every ```bash block of
//   docs/api.md, in order, one command at a time in one bash session opened in that directory, so
//   variables carry over as they do for a reader. `localhost:3000` stands for the tour's port.
// - A block preceded by `<!-- tour: skip (why) -->` is not run; `<!-- tour: when jq is absent -->`
//   marks the jq stand-in, run first when `jq` is not installed (or with --jq-stand-in).
// - `# -> answer` after a command (on its last line, or on the comment lines that follow it) is
//   compared with that command's output (see readme-tour-compare.js); a command with no answer
//   must exit 0. Every difference is printed with its block; the exit code is then 1.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./free-port');
const { parseAnswer, compareOutput, IncompleteAnswer } = require('./readme-tour-compare');

const ROOT = path.resolve(__dirname, '..');
const DOCS_PORT = 'localhost:3000';
const COMMAND_TIMEOUT_MS = 120_000;
const JQ_STAND_IN = 'when jq is absent';
const START_TIMEOUT_MS = 60_000;
/** What the working directory (the repository, for a reader) holds: these links and the gateway's data/. */
const LINKED = ['dist', 'config', 'examples'];
const OWNED = new Set([...LINKED, 'data']);
/** The only variables the gateway and the shell inherit: the tour runs on the embedded defaults. */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TERM'];

const args = new Set(process.argv.slice(2));
/** A page's path from `--<name>=<file>` (a draft), else the repository's. */
const pageFile = (name, file) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? path.join(ROOT, file);
/** The pages whose examples run, in order, each with the sections that hold them (null: all). */
const PAGES = [
  { name: 'README.md', file: pageFile('readme', 'README.md'), sections: ['Quick tour (curl)'] },
  { name: 'docs/api.md', file: pageFile('api', 'docs/api.md'), sections: null },
];
const verbose = args.has('--verbose');

/**
 * The ```bash blocks of a page's `sections` (every block when null), each with its page, heading,
 * first line and marker.
 */
function extractBlocks(markdown, sections, file = 'README.md') {
  const lines = markdown.split('\n');
  const blocks = [];
  let section = null;
  let heading = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (/^#{2,4} /.test(line)) heading = line.replace(/^#+ /, '').trim();
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code block`);
    if (fence[1] === 'bash' && (sections === null || sections.includes(section))) {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      const marker = /^<!-- tour: (.*?) -->$/.exec(lines[before]?.trim() ?? '');
      blocks.push({ file, heading, line: i + 2, lines: lines.slice(i + 1, end), marker: marker ? marker[1] : null });
    }
    i = end;
  }
  return blocks;
}

const ANSWER_LINE = /^\s*#\s*->\s?(.*)$/;
const TRAILING_ANSWER = /\s#\s*->\s(.*)$/;

/** True when bash can parse the text as complete commands (no open quote, loop or `\`). */
function complete(text) {
  if (/\\\s*$/.test(text)) return false;
  return spawnSync('bash', ['-n'], { input: text }).status === 0;
}

/**
 * Splits a block into commands, each with the answer pinned to it: a `# ->` comment on its last
 * line, or `# ->` comment lines right after it (continued on further comment lines while the
 * JSON is open).
 */
function splitCommands(block) {
  const file = block.file ?? 'README.md';
  const steps = [];
  let pending = [];
  let answerOf = null;
  const addAnswer = (step, text, line) => {
    if (!step) throw new Error(`${file}:${line}: an answer with no command before it`);
    if (step.answer) throw new Error(`${file}:${line}: a second answer for one command`);
    step.answer = { text, line };
    answerOf = step;
  };
  block.lines.forEach((raw, index) => {
    const line = block.line + index;
    if (pending.length === 0) {
      const answer = ANSWER_LINE.exec(raw);
      if (answer) return addAnswer(steps[steps.length - 1], answer[1], line);
      if (/^\s*#/.test(raw) || raw.trim() === '') {
        if (answerOf && /^\s*#/.test(raw)) {
          answerOf.answer.more = [...(answerOf.answer.more ?? []), raw.replace(/^\s*#/, '')];
        }
        return undefined;
      }
    }
    answerOf = null;
    pending.push(raw);
    const text = pending.join('\n');
    if (!complete(text)) return undefined;
    const step = { command: text, line: line - pending.length + 1 };
    steps.push(step);
    pending = [];
    const trailing = TRAILING_ANSWER.exec(raw);
    if (trailing) addAnswer(step, trailing[1], line);
    return undefined;
  });
  if (pending.length) throw new Error(`${file}:${block.line}: the block ends inside a command`);
  for (const step of steps) if (step.answer) step.expected = resolveAnswer(step.answer, file);
  return steps;
}

/** Parses an answer, taking continuation lines while its JSON is still open. */
function resolveAnswer(answer, file) {
  const lines = [answer.text, ...(answer.more ?? [])];
  for (let count = 1; count <= lines.length; count++) {
    try {
      answer.shown = lines.slice(0, count).join(' ');
      return parseAnswer(answer.shown).node;
    } catch (error) {
      if (!(error instanceof IncompleteAnswer)) throw new Error(`${file}:${answer.line}: ${error.message}`);
    }
  }
  throw new Error(`${file}:${answer.line}: the answer's JSON is never closed`);
}

function inheritedEnv(extra) {
  const env = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

async function waitForHealth(base, gateway, logFile) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gateway.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the gateway did not become healthy:\n${fs.readFileSync(logFile, 'utf8')}`);
}

/** One bash process for the whole tour; each command is sourced so that its variables stay. */
class Shell {
  constructor(cwd, dir, env) {
    this.dir = dir;
    // Its own process group, so that a command left running (a wait that never ends) goes with it.
    this.proc = spawn('bash', ['--noprofile', '--norc'], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    this.buffer = '';
    this.waiting = null;
    this.proc.stdout.on('data', (chunk) => {
      this.buffer += chunk;
      this.settle();
    });
    this.proc.on('exit', () => this.waiting?.reject(new Error('the shell exited')));
    this.count = 0;
  }

  settle() {
    const match = /__TOUR_DONE__ (\d+) (\d+)\n/.exec(this.buffer);
    if (!match || !this.waiting) return;
    this.buffer = this.buffer.slice(match.index + match[0].length);
    this.waiting.resolve({ id: Number(match[1]), status: Number(match[2]) });
  }

  async run(command) {
    const id = ++this.count;
    const file = (name) => path.join(this.dir, `${id}.${name}`);
    fs.writeFileSync(file('sh'), `${command}\n`);
    const done = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no end after ${COMMAND_TIMEOUT_MS / 1000} s`)),
        COMMAND_TIMEOUT_MS,
      );
      this.waiting = {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
    });
    this.proc.stdin.write(
      `source '${file('sh')}' >'${file('out')}' 2>'${file('err')}' </dev/null; echo "__TOUR_DONE__ ${id} $?"\n`,
    );
    this.settle();
    const { status } = await done;
    this.waiting = null;
    return { status, stdout: fs.readFileSync(file('out'), 'utf8'), stderr: fs.readFileSync(file('err'), 'utf8') };
  }

  close() {
    try {
      process.kill(-this.proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function report(block, step, why, result) {
  const lines = [
    `\n✗ ${block.file}:${step.line} (${block.heading})`,
    ...step.command.split('\n').map((l) => `    ${l}`),
    `  ${why}`,
  ];
  if (step.answer) lines.push(`  expected (${block.file}:${step.answer.line}): ${step.answer.shown.trim()}`);
  if (result) {
    lines.push(`  actual: ${result.stdout.trim() || '(no output)'}`);
    if (result.stderr.trim()) lines.push(`  stderr: ${result.stderr.trim()}`);
  }
  console.log(lines.join('\n'));
}

async function main() {
  const forceStandIn = args.has('--jq-stand-in');
  const blocks = PAGES.flatMap((page) =>
    extractBlocks(fs.readFileSync(page.file, 'utf8'), page.sections, page.name),
  ).map((block) => ({ ...block, steps: splitCommands(block) }));
  // The reader is told to define the jq stand-in before the tour: it runs first.
  blocks.sort((a, b) => Number(b.marker === JQ_STAND_IN) - Number(a.marker === JQ_STAND_IN));

  if (!args.has('--no-build')) {
    console.log('== npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) process.exit(1);
  }
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-tour-'));
  const work = path.join(tmp, 'work');
  const commands = path.join(tmp, 'commands');
  fs.mkdirSync(work);
  fs.mkdirSync(commands);
  // The gateway reads dist/ and config/ from its working directory and writes data/ there; the
  // examples are run from examples/ as a reader runs them from the repository.
  for (const name of LINKED) fs.symlinkSync(path.join(ROOT, name), path.join(work, name));

  const port = await freePort();
  const base = `http://localhost:${port}`;
  const logFile = path.join(tmp, 'gateway.log');
  const log = fs.openSync(logFile, 'w');
  console.log(`== ${start} (in ${work}, PORT=${port})`);
  const gateway = spawn('sh', ['-c', `exec ${start}`], {
    cwd: work,
    env: inheritedEnv({ PORT: String(port) }),
    stdio: ['ignore', log, log],
  });
  // The reader's temporary files (mktemp, the examples' downloads) stay inside the tour's own directory.
  const readerTmp = path.join(tmp, 'tmp');
  fs.mkdirSync(readerTmp);
  const shell = new Shell(work, commands, inheritedEnv({ TMPDIR: readerTmp }));
  let failures = 0;
  let checked = 0;
  try {
    await waitForHealth(base, gateway, logFile);
    const hasJq = spawnSync('bash', ['-c', 'command -v jq'], { env: inheritedEnv({}) }).status === 0;
    const useStandIn = forceStandIn || !hasJq;
    for (const block of blocks) {
      const where = `${block.file}:${block.line} (${block.heading})`;
      if (block.marker?.startsWith('skip')) {
        console.log(`- ${where}: not run: ${block.marker}`);
        continue;
      }
      if (block.marker === JQ_STAND_IN && !useStandIn) {
        console.log(`- ${where}: not run (jq is installed; --jq-stand-in runs it)`);
        continue;
      }
      if (block.marker && block.marker !== JQ_STAND_IN) throw new Error(`${where}: unknown marker ${block.marker}`);
      let blockFailures = 0;
      for (const step of block.steps) {
        const command = step.command.replaceAll(DOCS_PORT, `localhost:${port}`);
        let result;
        try {
          result = await shell.run(command);
        } catch (error) {
          report(block, step, error.message, null);
          failures++;
          throw new Error('the tour stopped');
        }
        if (verbose) console.log(`$ ${command}\n${result.stdout}${result.stderr}`);
        let why = null;
        if (step.expected) {
          checked++;
          why = compareOutput(relocate(step.expected, port), result.stdout);
        } else if (result.status !== 0) {
          why = `exit status ${result.status}`;
        }
        if (why) {
          report(block, step, why, result);
          blockFailures++;
        }
      }
      failures += blockFailures;
      const stray = strayFiles(work);
      if (stray.length) {
        console.log(
          `\n✗ ${where}: wrote ${stray.join(', ')} into the working directory (the repository, for a reader)`,
        );
        failures++;
        blockFailures++;
        for (const name of stray) fs.rmSync(path.join(work, name), { recursive: true, force: true });
      }
      const answers = block.steps.filter((s) => s.expected).length;
      const counts = `${plural(block.steps.length, 'command')}, ${plural(answers, 'answer')}`;
      const differ = blockFailures ? `, ${blockFailures} differ` : '';
      console.log(`${blockFailures ? '✗' : '✓'} ${where}: ${counts}${differ}`);
    }
  } catch (error) {
    if (error.message !== 'the tour stopped') console.error(error.message);
    failures = Math.max(failures, 1);
  } finally {
    shell.close();
    if (gateway.exitCode === null) {
      const exited = new Promise((r) => gateway.once('exit', r));
      gateway.kill('SIGTERM');
      const stuck = setTimeout(() => gateway.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(stuck);
    }
    fs.closeSync(log);
    if (args.has('--keep') || failures) console.log(`(kept ${tmp}: gateway.log, work/, commands/)`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    failures ? `docs:tour: ${failures} difference(s)` : `docs:tour: every answer matched (${checked} compared)`,
  );
  process.exit(failures ? 1 : 0);
}

/** What a block left in the working directory besides the links and data/: examples write elsewhere. */
function strayFiles(dir) {
  return fs.readdirSync(dir).filter((name) => !OWNED.has(name));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The pages' answers name port 3000; the tour's gateway answers on its own port. */
function relocate(node, port) {
  return JSON.parse(JSON.stringify(node), (key, value) =>
    typeof value === 'string' ? value.replaceAll(DOCS_PORT, `localhost:${port}`) : value,
  );
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { extractBlocks, splitCommands, strayFiles };
