// A real OpenID Connect issuer (oidc-provider) for the console's single sign-on tests, run as its
// own process (oidc-provider is an ES module). Anyone signs in with any password on its login form
// (its development interactions); who they are comes from PEOPLE. Consent is taken as given, as for
// a first-party client. Prints `{"issuer": ...}` on one line once it listens.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = process.env;
const PEOPLE = JSON.parse(process.env.PEOPLE ?? '{}');

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [REDIRECT_URI],
      response_types: ['code'],
      grant_types: ['authorization_code'],
    },
  ],
  jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
  cookies: { keys: ['oidc-issuer-test-cookie-key'] },
  claims: { openid: ['sub'], profile: ['name', 'gateway_role'], email: ['email'] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    const person = PEOPLE[id] ?? {};
    return {
      accountId: id,
      // A person marked `userinfo_fails` signs in, but the userinfo endpoint fails to read them.
      claims: async (use) => {
        if (use === 'userinfo' && person.userinfo_fails) throw new Error('the account store is unavailable');
        return { sub: id, ...person };
      },
    };
  },
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid profile email');
    await grant.save();
    return grant;
  },
});
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
