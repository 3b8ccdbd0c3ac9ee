/**
 * Where a JSON text first goes wrong, for the 400 a client gets when its body does not parse. Only
 * called once `JSON.parse` has failed: V8's own messages name the position for some mistakes and
 * quote the whole body for others (which must not be echoed), so the position is found here.
 */
import { MAX_BODY_DEPTH } from './input-shape';

export interface JsonSyntaxProblem {
  /** What is wrong, lower case, never quoting more than the one offending character. */
  problem: string;
  /** 0-based offset in the text (UTF-16 code units, as `JSON.parse` counts). */
  position: number;
  line: number;
  column: number;
}

class Stop extends Error {
  constructor(
    readonly problem: string,
    readonly position: number,
  ) {
    super(problem);
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);
const LITERALS = ['true', 'false', 'null'];
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
/** A run of string content with nothing to check in it (skipped by the regex engine, not char by char: Base64 is long). */
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;

/** The first syntax problem of `text`, or null when it is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  let at = 0;
  const shown = (i: number): string => {
    if (i >= text.length) return 'the end of the body';
    const c = text[i];
    return /^[\x21-\x7e]$/.test(c)
      ? `'${c}'`
      : `character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  };
  const fail = (problem: string): never => {
    throw new Stop(problem, at);
  };
  const skip = (): void => {
    while (at < text.length && WS.has(text[at])) at++;
  };
  const digits = (): number => {
    const from = at;
    while (at < text.length && text[at] >= '0' && text[at] <= '9') at++;
    return at - from;
  };
  const string = (): void => {
    at++; // opening quote
    for (;;) {
      PLAIN_RUN.lastIndex = at;
      PLAIN_RUN.test(text);
      at = PLAIN_RUN.lastIndex;
      if (at >= text.length) fail('unterminated string');
      const c = text[at];
      if (c === '"') return void at++;
      if (c < ' ') fail(`unescaped ${shown(at)} in a string`);
      if (c === '\\') {
        const e = text[at + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) fail('bad \\u escape in a string');
          at += 6;
        } else if (e !== undefined && ESCAPES.has(e)) at += 2;
        else {
          at++;
          fail(`bad escape \\${e ?? ''} in a string`);
        }
      } else at++;
    }
  };
  const number = (): void => {
    if (text[at] === '-') at++;
    if (text[at] === '0') at++;
    else if (digits() === 0) fail(`expected a digit, found ${shown(at)}`);
    if (text[at] === '.') {
      at++;
      if (digits() === 0) fail(`expected a digit after '.', found ${shown(at)}`);
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at++;
      if (text[at] === '+' || text[at] === '-') at++;
      if (digits() === 0) fail(`expected a digit in the exponent, found ${shown(at)}`);
    }
  };
  const value = (depth: number): void => {
    skip();
    // Bodies this deep are refused anyway; stopping here keeps the recursion off the stack's limit.
    if (depth > MAX_BODY_DEPTH) fail(`the body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    const c = text[at];
    if (c === '{') {
      at++;
      skip();
      if (text[at] === '}') return void at++;
      for (;;) {
        skip();
        if (text[at] !== '"') fail(`expected a double-quoted property name, found ${shown(at)}`);
        string();
        skip();
        if (text[at] !== ':') fail(`expected ':' after a property name, found ${shown(at)}`);
        at++;
        value(depth + 1);
        skip();
        if (text[at] === '}') return void at++;
        if (text[at] !== ',') fail(`expected ',' or '}' after a property value, found ${shown(at)}`);
        at++;
      }
    }
    if (c === '[') {
      at++;
      skip();
      if (text[at] === ']') return void at++;
      for (;;) {
        value(depth + 1);
        skip();
        if (text[at] === ']') return void at++;
        if (text[at] !== ',') fail(`expected ',' or ']' after an array element, found ${shown(at)}`);
        at++;
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    const literal = LITERALS.find((l) => l[0] === c);
    if (literal) {
      for (let i = 0; i < literal.length; i++, at++) {
        if (text[at] !== literal[i]) fail(`expected '${literal}', found ${shown(at)}`);
      }
      return;
    }
    fail(`expected a value, found ${shown(at)}`);
  };
  try {
    value(0);
    skip();
    if (at < text.length) fail(`unexpected ${shown(at)} after the JSON value`);
    return null;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.position);
    const line = before.split('\n').length;
    return {
      problem: error.problem,
      position: error.position,
      line,
      column: error.position - before.lastIndexOf('\n'),
    };
  }
}
