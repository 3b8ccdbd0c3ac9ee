import { ChildProcess, spawn } from 'child_process';
import { join } from 'path';
import { createInterface } from 'readline';

export interface TestIssuer {
  url: string;
  stop(): void;
}

/**
 * A real OpenID Connect issuer (`oidc-provider`, in its own process: it is an ES module) with one
 * client, the gateway's console, and the people it knows: login name -> claims.
 */
export async function startTestIssuer(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  people: Record<string, Record<string, unknown>>;
}): Promise<TestIssuer> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-issuer.mjs')], {
    env: {
      ...process.env,
      CLIENT_ID: options.clientId,
      CLIENT_SECRET: options.clientSecret,
      REDIRECT_URI: options.redirectUri,
      PEOPLE: JSON.stringify(options.people),
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the test issuer exited (${code})`)));
  });
  return { url: (JSON.parse(firstLine) as { issuer: string }).issuer, stop: () => child.kill('SIGTERM') };
}
