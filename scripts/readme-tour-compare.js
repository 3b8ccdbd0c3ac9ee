// The README tour's answer comparator: parses an answer as the README shows it after `# ->` and
// checks a command's output against it.
//
// An answer is JSON in which `…` stands for what varies:
//   - as a value: any value;                    {"request_id":"…"} also matches any string
//   - inside a string or a bare number: any run of characters ("task_01…", 1795…)
//   - as an object member: more fields may follow ({"code":0,…}); without it the fields are exact
//   - as an array element: any run of elements, possibly none ([{"event":"hold",…},…])
//   - `…some words…` is the same wildcard with a note for the reader ({…same as the query…})
// An answer that does not start with `{` or `[` is one word of text, `…` matching any run.
// Whatever follows the JSON value on its line is prose for the reader and is not compared.
'use strict';

const ELLIPSIS = '…';
const STRUCTURAL = '{}[],:"';

class IncompleteAnswer extends Error {}

/** Parses the answer text (one line, or continuation lines joined by a space). */
function parseAnswer(text) {
  const source = text.trim();
  if (source.startsWith('{') || source.startsWith('[')) {
    const parser = new Parser(source);
    const node = parser.value();
    return { node, prose: source.slice(parser.pos).trim() };
  }
  const [word = '', ...rest] = source.split(/\s+/);
  if (!word) throw new Error('empty answer');
  return { node: { kind: 'text', pattern: word }, prose: rest.join(' ') };
}

class Parser {
  constructor(source) {
    this.source = source;
    this.pos = 0;
  }

  fail(message) {
    if (this.pos >= this.source.length) throw new IncompleteAnswer(`answer ends early: ${message}`);
    throw new Error(`${message} at column ${this.pos + 1} of ${this.source}`);
  }

  skipSpace() {
    while (this.pos < this.source.length && /\s/.test(this.source[this.pos])) this.pos++;
  }

  peek() {
    this.skipSpace();
    return this.source[this.pos];
  }

  expect(char) {
    if (this.peek() !== char) this.fail(`expected ${char}`);
    this.pos++;
  }

  /** `…`, or `…words…` when a second `…` closes a note that holds no JSON punctuation. */
  ellipsis() {
    this.pos += ELLIPSIS.length;
    const close = this.source.indexOf(ELLIPSIS, this.pos);
    if (close > this.pos) {
      const note = this.source.slice(this.pos, close);
      if (![...note].some((c) => STRUCTURAL.includes(c))) this.pos = close + ELLIPSIS.length;
    }
  }

  value() {
    const char = this.peek();
    if (char === undefined) this.fail('expected a value');
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    return this.bare();
  }

  object() {
    this.expect('{');
    const members = [];
    let open = false;
    if (this.peek() === '}') {
      this.pos++;
      return { kind: 'object', members, open };
    }
    for (;;) {
      if (this.source.startsWith(ELLIPSIS, this.pos)) {
        this.ellipsis();
        open = true;
      } else {
        const key = this.string().pattern;
        this.expect(':');
        members.push([key, this.value()]);
      }
      const next = this.peek();
      this.pos++;
      if (next === '}') return { kind: 'object', members, open };
      if (next !== ',') {
        this.pos--;
        this.fail('expected , or }');
      }
      this.skipSpace();
    }
  }

  array() {
    this.expect('[');
    const items = [];
    if (this.peek() === ']') {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      this.skipSpace();
      if (this.source.startsWith(ELLIPSIS, this.pos) && this.endsWildcard()) {
        this.ellipsis();
        items.push({ kind: 'rest' });
      } else {
        items.push(this.value());
      }
      const next = this.peek();
      this.pos++;
      if (next === ']') return { kind: 'array', items };
      if (next !== ',') {
        this.pos--;
        this.fail('expected , or ]');
      }
    }
  }

  /** True when the `…` at pos stands alone (not the start of a bare glob such as `…5`). */
  endsWildcard() {
    const saved = this.pos;
    this.ellipsis();
    const next = this.peek();
    this.pos = saved;
    return next === ',' || next === ']' || next === '}' || next === undefined;
  }

  string() {
    this.skipSpace();
    if (this.source[this.pos] !== '"') this.fail('expected a string');
    const start = this.pos;
    this.pos++;
    while (this.pos < this.source.length && this.source[this.pos] !== '"') {
      if (this.source[this.pos] === '\\') this.pos++;
      this.pos++;
    }
    if (this.pos >= this.source.length) this.fail('unterminated string');
    this.pos++;
    return { kind: 'string', pattern: JSON.parse(this.source.slice(start, this.pos)) };
  }

  bare() {
    if (this.source.startsWith(ELLIPSIS, this.pos) && this.endsWildcard()) {
      this.ellipsis();
      return { kind: 'any' };
    }
    const start = this.pos;
    while (
      this.pos < this.source.length &&
      !STRUCTURAL.includes(this.source[this.pos]) &&
      !/\s/.test(this.source[this.pos])
    ) {
      this.pos++;
    }
    const word = this.source.slice(start, this.pos);
    if (!word) this.fail('expected a value');
    if (word.includes(ELLIPSIS)) return { kind: 'scalar', pattern: word };
    try {
      return { kind: 'literal', value: JSON.parse(word) };
    } catch {
      this.pos = start;
      return this.fail(`not a JSON value: ${word}`);
    }
  }
}

/** `…` in the pattern matches any run of characters; everything else is literal. */
function globMatches(pattern, text) {
  const parts = pattern.split(ELLIPSIS).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`).test(text);
}

const show = (value) => (value === undefined ? '(missing)' : JSON.stringify(value));

/** The first difference between the answer shown and the value received, or null. */
function mismatch(node, actual, path) {
  switch (node.kind) {
    case 'any':
      return actual === undefined ? `${path}: missing` : null;
    case 'literal':
      return actual === node.value ? null : `${path}: expected ${show(node.value)}, got ${show(actual)}`;
    case 'string':
      if (typeof actual !== 'string')
        return `${path}: expected a string like ${show(node.pattern)}, got ${show(actual)}`;
      return globMatches(node.pattern, actual) ? null : `${path}: expected ${show(node.pattern)}, got ${show(actual)}`;
    case 'scalar':
      if (actual === undefined || (actual !== null && typeof actual === 'object') || typeof actual === 'string')
        return `${path}: expected a value like ${node.pattern}, got ${show(actual)}`;
      return globMatches(node.pattern, String(actual))
        ? null
        : `${path}: expected ${node.pattern}, got ${show(actual)}`;
    case 'object':
      return objectMismatch(node, actual, path);
    case 'array':
      return arrayMismatch(node, actual, path);
    default:
      throw new Error(`unknown answer node ${node.kind}`);
  }
}

function objectMismatch(node, actual, path) {
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
    return `${path}: expected an object, got ${show(actual)}`;
  for (const [key, child] of node.members) {
    if (!Object.prototype.hasOwnProperty.call(actual, key)) return `${path}.${key}: missing`;
    const found = mismatch(child, actual[key], `${path}.${key}`);
    if (found) return found;
  }
  if (!node.open) {
    const listed = new Set(node.members.map(([key]) => key));
    const extra = Object.keys(actual).filter((key) => !listed.has(key));
    if (extra.length) return `${path}: unexpected field(s) ${extra.join(', ')} (add … to allow more)`;
  }
  return null;
}

function arrayMismatch(node, actual, path) {
  if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
  const items = node.items;
  if (!items.some((item) => item.kind === 'rest')) {
    if (items.length !== actual.length) return `${path}: expected ${items.length} element(s), got ${actual.length}`;
    for (let i = 0; i < items.length; i++) {
      const found = mismatch(items[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  // With `…` elements the pattern is a glob over the elements: try every way to place them.
  let firstFailure = null;
  const fits = (i, j) => {
    if (i === items.length) return j === actual.length;
    if (items[i].kind === 'rest') {
      for (let k = j; k <= actual.length; k++) if (fits(i + 1, k)) return true;
      return false;
    }
    if (j >= actual.length) return false;
    const found = mismatch(items[i], actual[j], `${path}[${j}]`);
    if (found) {
      firstFailure ??= found;
      return false;
    }
    return fits(i + 1, j + 1);
  };
  if (fits(0, 0)) return null;
  return `${path}: no element arrangement matches${firstFailure ? ` (e.g. ${firstFailure})` : ''}`;
}

/** Compares a command's whole output with a parsed answer: null when it matches, else why not. */
function compareOutput(node, output) {
  const text = output.trim();
  if (node.kind === 'text') {
    return globMatches(node.pattern, text) ? null : `expected ${node.pattern}, got ${text || '(no output)'}`;
  }
  let actual;
  try {
    actual = JSON.parse(text);
  } catch {
    return `expected JSON, got ${text || '(no output)'}`;
  }
  return mismatch(node, actual, '$');
}

module.exports = { parseAnswer, compareOutput, globMatches, IncompleteAnswer };
