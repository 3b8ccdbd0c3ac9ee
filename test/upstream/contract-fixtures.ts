import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { UpstreamFamily } from '../../src/upstream/upstream.types';
import { FakeHandler, sendJson } from './fake-upstream';

/** One documented answer: `test/fixtures/upstream/<family>/<name>.json`. */
export interface ContractFixture {
  /** Where in the vendor's documentation it comes from. */
  readonly $source: string;
  readonly status: number;
  readonly body: unknown;
}

const fixturesDir = (family: UpstreamFamily) => join(__dirname, '..', 'fixtures', 'upstream', family);

export function loadFixture(family: UpstreamFamily, name: string): ContractFixture {
  return JSON.parse(readFileSync(join(fixturesDir(family), `${name}.json`), 'utf8')) as ContractFixture;
}

/** Every fixture of a family, by name (so a spec can prove it checks them all). */
export function fixtureNames(family: UpstreamFamily): string[] {
  return readdirSync(fixturesDir(family))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** A fake-upstream handler answering every request with the fixture. */
export function answerWith(fixture: ContractFixture): FakeHandler {
  return (_request, response) => sendJson(response, fixture.status, fixture.body);
}
