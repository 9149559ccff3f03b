import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider) on loopback for the SSO tests: two confidential clients
 * (client_secret_basic, PKCE required), accounts by id with their claims, and its development
 * login and consent pages, which `signInAt` fills in as a browser would.
 */
export interface TestProvider {
  issuer: string;
  clients: Record<'a' | 'b', { id: string; secret: string }>;
  /** While set, the token endpoint sees this client's credentials instead of the caller's (a provider issuing to another client). */
  swapTokenClient: 'a' | 'b' | null;
  close(): Promise<void>;
}

export const accounts: Record<string, { email: string; email_verified: boolean; name: string }> = {
  ana: { email: 'ana@learners.example', email_verified: true, name: 'Ana Souza' },
  bruno: { email: 'bruno@learners.example', email_verified: true, name: 'Bruno Lima' },
  mallory: { email: 'mallory@learners.example', email_verified: false, name: 'Mallory' },
  outsider: { email: 'someone@elsewhere.example', email_verified: true, name: 'Outsider' },
};

export async function startProvider(redirectUri: string): Promise<TestProvider> {
  let handler: (req: any, res: any) => void = () => {};
  const basic = (c: { id: string; secret: string }) => `Basic ${Buffer.from(`${encodeURIComponent(c.id)}:${encodeURIComponent(c.secret)}`).toString('base64')}`;
  const state: TestProvider = {
    issuer: '',
    clients: { a: { id: 'school-a-client', secret: 'client-a-secret-0123456789abcdef' }, b: { id: 'school-b-client', secret: 'client-b-secret-0123456789abcdef' } },
    swapTokenClient: null,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    if (state.swapTokenClient && req.url?.startsWith('/token')) req.headers.authorization = basic(state.clients[state.swapTokenClient]);
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(state.issuer, {
    clients: Object.values(state.clients).map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx: unknown, id: string) => (accounts[id] ? { accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) } : undefined),
    cookies: { keys: ['sso-test-cookie-key'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  handler = provider.callback();
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/**
 * Goes through the provider as a browser: opens the authorization URL, signs in as `account` on
 * the login page, consents, and returns the redirect back to `redirectUri` (code, state, iss).
 */
export async function signInAt(authorizationUrl: string, account: string | null, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | null = null;
  for (let step = 0; step < 12; step++) {
    const res: Response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form ?? undefined,
      headers: { cookie: cookie(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      redirect: 'manual',
    });
    remember(res);
    form = null;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next;
      continue;
    }
    const html: string = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
    const prompt: string | undefined = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    // No account: the person cancels on the login page (the provider answers access_denied).
    if (prompt === 'login' && account === null) url = new URL(`${url.pathname.replace(/\/$/, '')}/abort`, url);
    else if (prompt === 'login') form = new URLSearchParams({ prompt, login: account!, password: 'any' });
    else if (prompt === 'consent') form = new URLSearchParams({ prompt });
    else throw new Error(`unexpected page: ${html.slice(0, 300)}`);
  }
  throw new Error('the provider never redirected back');
}
