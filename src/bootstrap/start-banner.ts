import { relative, isAbsolute } from 'path';
import type { AdminToken } from './admin-token-file';
import type { DemoAccount } from './demo-seed';

export interface StartFacts {
  url: string;
  admin: AdminToken;
  /** Families the built-in simulator serves (empty when every family has a real channel). */
  simulated: readonly string[];
  /** Real upstream channels. */
  channels: ReadonlyArray<{ id: string; family: string; baseUrl: string }>;
  demo: DemoAccount | null;
  cwd?: string;
}

/**
 * The lines a person needs after `npm start`, printed after every log line of the start: where it
 * listens, where the console is, how to get the admin token, which upstreams it uses, and the demo
 * key as the `API_KEY` that `npm run demo` and the README's examples read (or how to get a new
 * one). A generated admin token is printed once, on the start that generated it (it is never
 * shown again); later starts name only its file.
 */
export function startBanner(facts: StartFacts): string[] {
  const cwd = facts.cwd ?? process.cwd();
  const lines = [
    `Gateway listening on ${facts.url} (OpenAPI: ${facts.url}/docs)`,
    `Console: ${facts.url}/console (sign in with the admin token)`,
  ];

  const { admin } = facts;
  if (admin.origin === 'env' || !admin.file) {
    lines.push('Admin token: the value of ADMIN_TOKEN');
  } else {
    const shown = shortPath(admin.file, cwd);
    if (admin.origin === 'created') {
      lines.push(
        `Admin token (generated, shown once): ${admin.token} - kept in ${shown} (mode 0600, reused at every start; ADMIN_TOKEN overrides it)`,
      );
    } else {
      lines.push(
        `Admin token: kept in ${shown} (mode 0600, reused at every start; ADMIN_TOKEN overrides it): export ADMIN=$(cat ${shown})`,
      );
    }
  }

  const upstreams = facts.channels.map((c) => `${c.family} -> ${origin(c.baseUrl)} (${c.id})`);
  if (facts.simulated.length > 0) upstreams.push(`built-in simulator for ${facts.simulated.join(', ')}`);
  lines.push(`Upstream: ${upstreams.join('; ')}`);

  const { demo } = facts;
  if (demo?.key) {
    lines.push(
      `Demo API key (account ${demo.accountId}, every model enabled; shown only now; npm run demo and the README use API_KEY): export API_KEY=${demo.key}`,
    );
  } else if (demo) {
    lines.push(
      `Demo account: ${demo.accountId} (its key was shown at its first start; npm run demo -- --new-key creates a new demo account with its own key)`,
    );
  }
  return lines;
}

/** A path relative to the working directory when it is inside it (what a person types), else absolute. */
function shortPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** Scheme, host and port only: never a path, query or credentials from the configuration. */
function origin(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return '(invalid URL)';
  }
}
