import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { decryptSecret } from '../src/auth/secrets.js';
import { integrations } from '../src/modules/integrations/integration.table.js';
import { refusedAddress, refusedWebhookUrl } from '../src/modules/webhooks/webhook.http.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { expectFieldError } from './support/rest-assertions.js';
import { Client, type Service, startService, type TestSchool } from './support/service.js';

// The SSRF guard of webhooks (issue 23, point 4): which addresses it refuses, and that saving an
// integration refuses a URL delivery would refuse (a 422 naming metaconfig.url), not 27 h of retries.

let service: Service, school: TestSchool;
/** A second app on the same database, as with WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true. */
let allowing: FastifyInstance;

beforeAll(async () => {
  service = await startService();
  school = await service.school('SSRF school');
  allowing = await createApp({ database: service.database, rateLimit: { enabled: false }, webhooksAllowPrivateNetworks: true });
  await allowing.ready();
});
afterAll(async () => {
  await allowing?.close();
  await service?.stop();
});

const stored = async (id: string | number) => {
  const [row] = await service.db.select().from(integrations).where(eq(integrations.id, Number(id)));
  return row.metaconfigCiphertext ? JSON.parse(decryptSecret(row.metaconfigCiphertext)) : null;
};
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(fingerprint(() => service, { integrations }), work);

const create = `mutation ($input: IntegrationInput!) { createIntegration(input: $input) { integration { id metaconfig } errors { field code message } } }`;
const update = `mutation ($id: ID!, $input: IntegrationInput!) { updateIntegration(id: $id, input: $input) { integration { id metaconfig } errors { field code message } } }`;
const input = (metaconfig: Record<string, unknown>) => ({ ownerType: 'School', ownerId: school.id, metadata: { events: ['course.created'] }, metaconfig });
/** `.invalid` never resolves (RFC 6761): a name DNS cannot answer for now. */
const UNRESOLVED = 'https://hooks.ssrf-test.invalid/lp';

describe('refusedAddress', () => {
  it('refuses IPv4-compatible IPv6 (::/96), whatever IPv4 address it carries, in either spelling', () => {
    for (const address of ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::169.254.169.254', '::a00:1', '::8.8.8.8', '::808:808'])
      expect(refusedAddress(address), address).toMatch(/is an IPv4-compatible address \(::\/96, \d+\.\d+\.\d+\.\d+\)/);
  });

  it('refuses every range ipaddr.js names other than unicast (its first address)', () => {
    type Ranges = Record<string, [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][]>;
    const named = [ipaddr.IPv4, ipaddr.IPv6].flatMap((kind) =>
      Object.entries((kind.prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges).flatMap(([name, ranges]) =>
        (Array.isArray(ranges[0]) ? (ranges as [ipaddr.IPv4 | ipaddr.IPv6, number][]) : [ranges as [ipaddr.IPv4 | ipaddr.IPv6, number]]).map(
          ([network]) => [name, network.toString()] as const,
        ),
      ),
    );
    expect(named.length).toBeGreaterThan(25);
    for (const [name, address] of named) expect(refusedAddress(address), `${name} ${address}`).not.toBeNull();
  });

  it('judges the IPv4 address carried by mapped, translated and NAT64 addresses; refuses 6to4 and Teredo', () => {
    const refused = {
      '::ffff:127.0.0.1': /carries 127\.0\.0\.1 is a loopback address/,
      '::ffff:0:10.0.0.1': /carries 10\.0\.0\.1 is a private address/,
      '64:ff9b::a9fe:a9fe': /carries 169\.254\.169\.254 is a linkLocal address/,
      '64:ff9b:1::a00:1': /is a rfc6052 address/,
      '2002:c0a8:101::1': /is a 6to4 address/,
      '2002:808:808::1': /is a 6to4 address/,
      '2001:0:4136:e378:8000:63bf:3fff:fdd2': /is a teredo address/,
      '2001:db8::1': /is a reserved address/,
      '192.0.2.1': /is a reserved address/,
      'fe80::1%eth0': /is a linkLocal address/,
      'not-an-ip': /is not an IP address/,
    };
    for (const [address, why] of Object.entries(refused)) expect(refusedAddress(address), address).toMatch(why);
    for (const address of ['8.8.8.8', '2606:4700:4700::1111', '::ffff:1.1.1.1', '::ffff:0:1.1.1.1', '64:ff9b::8.8.8.8']) expect(refusedAddress(address), address).toBeNull();
  });

  it('refusedWebhookUrl: the scheme, an IP literal, every address a name resolves to; an unresolved name passes', async () => {
    expect(await refusedWebhookUrl('http://[::127.0.0.1]:8080/', false)).toMatch(/^is refused: ::7f00:1 is an IPv4-compatible address .*WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true$/);
    expect(await refusedWebhookUrl('http://2130706433/', false)).toMatch(/^is refused: 127\.0\.0\.1 is a loopback address/);
    expect(await refusedWebhookUrl('http://localhost:9/hook', false)).toMatch(/^is refused: localhost resolves to a non-public address \((127\.0\.0\.1|::1) is a loopback address\)/);
    expect(await refusedWebhookUrl('gopher://example.com/', false)).toBe('must be an http or https URL');
    expect(await refusedWebhookUrl({ href: 'http://example.com' }, false)).toBe('is not a URL');
    expect(await refusedWebhookUrl(UNRESOLVED, false)).toBeNull();
    expect(await refusedWebhookUrl('http://[::127.0.0.1]/', true)).toBeNull();
    expect(await refusedWebhookUrl('http://localhost:9/', true)).toBeNull();
    expect(await refusedWebhookUrl('ftp://localhost/', true)).toBe('must be an http or https URL');
  });
});

describe('saving an integration checks metaconfig.url', () => {
  const refusedUrls = [
    ['http://[::127.0.0.1]:8080/hook', /IPv4-compatible address \(::\/96, 127\.0\.0\.1\)/],
    ['http://[::a9fe:a9fe]/latest/meta-data', /IPv4-compatible address \(::\/96, 169\.254\.169\.254\)/],
    ['http://[::a00:1]/', /IPv4-compatible address \(::\/96, 10\.0\.0\.1\)/],
    ['http://[::ffff:169.254.169.254]/', /carries 169\.254\.169\.254 is a linkLocal address/],
    ['http://[64:ff9b::7f00:1]/', /carries 127\.0\.0\.1 is a loopback address/],
    ['http://[2002:a00:1::1]/', /is a 6to4 address/],
    ['http://127.0.0.1:5432/', /127\.0\.0\.1 is a loopback address/],
    ['http://localhost:9/hook', /localhost resolves to a non-public address/],
    ['ftp://files.example.com/', /must be an http or https URL/],
    ['http://user:pass@example.com/', /may not carry credentials/],
  ] as const;

  it.each(refusedUrls)('createIntegration with %s: the payload names metaconfig.url, nothing is written', async (url, why) => {
    const res = await expectNoWrite(() => school.admin.graphql(create, { input: input({ url, token: 'kept-secret' }) }));
    expect(res.errors).toBeUndefined();
    expect(res.data.createIntegration.integration).toBeNull();
    expect(res.data.createIntegration.errors).toEqual([{ field: ['metaconfig', 'url'], code: 'invalid', message: expect.stringMatching(why) }]);
  });

  it('REST create (JSON and form) and update answer 422 naming metaconfig.url', async () => {
    const json = await expectNoWrite(() => school.admin.post('/integrations', { integration: { owner_type: 'School', owner_id: school.id, metaconfig: { url: 'http://[::a9fe:a9fe]/' } } }));
    expectFieldError(json, 422, 'metaconfig.url', 'invalid');
    expect(json.body.errors['metaconfig.url'][0]).toMatch(/^is refused: ::a9fe:a9fe is an IPv4-compatible address \(::\/96, 169\.254\.169\.254\)/);

    const raw = `integration[owner_type]=School&integration[owner_id]=${school.id}&integration[metaconfig][url]=${encodeURIComponent('http://[::127.0.0.1]/')}`;
    const form = await expectNoWrite(() => school.admin.post('/integrations', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    expectFieldError(form, 422, 'metaconfig.url', 'invalid');

    const made = await school.admin.post('/integrations', { integration: { owner_type: 'School', owner_id: school.id, metaconfig: { url: UNRESOLVED } } });
    expect(made.status, made.text).toBe(201);
    const patch = await expectNoWrite(() => school.admin.patch(`/integrations/${made.body.id}`, { integration: { metaconfig: { url: 'http://10.0.0.1/' } } }));
    expectFieldError(patch, 422, 'metaconfig.url', 'invalid');
    expect(patch.body.errors['metaconfig.url'][0]).toMatch(/10\.0\.0\.1 is a private address/);
    expect(await stored(made.body.id)).toEqual({ url: UNRESOLVED });
  });

  it('updateIntegration checks a new url only: other keys, or the masked url sent back, keep a stored one', async () => {
    const made = await school.admin.graphql(create, { input: input({ url: UNRESOLVED }) });
    expect(made.data.createIntegration.errors).toEqual([]);
    const id = made.data.createIntegration.integration.id;

    const bad = await school.admin.graphql(update, { id, input: { metaconfig: { url: 'http://[::a00:1]/' } } });
    expect(bad.data.updateIntegration.errors).toEqual([{ field: ['metaconfig', 'url'], code: 'invalid', message: expect.stringMatching(/IPv4-compatible/) }]);
    expect(await stored(id)).toEqual({ url: UNRESOLVED });

    // A url stored while private networks were allowed: changing other keys does not re-judge it (delivery does).
    const legacy = await new Client(allowing, school.admin.token).graphql(update, { id, input: { metaconfig: { url: 'http://localhost:9/hook' } } });
    expect(legacy.data.updateIntegration.errors).toEqual([]);
    const masked = legacy.data.updateIntegration.integration.metaconfig.url;
    const other = await school.admin.graphql(update, { id, input: { metaconfig: { token: 'abc', url: masked } } });
    expect(other.data.updateIntegration.errors).toEqual([]);
    expect(await stored(id)).toEqual({ url: 'http://localhost:9/hook', token: 'abc' });

    const cleared = await school.admin.graphql(update, { id, input: { metaconfig: { url: null } } });
    expect(cleared.data.updateIntegration.errors).toEqual([]);
    expect(await stored(id)).toEqual({ token: 'abc' });
  });

  it('an unresolved name is accepted (delivery checks again); with private networks allowed, loopback is too', async () => {
    const unresolved = await school.admin.graphql(create, { input: input({ url: UNRESOLVED }) });
    expect(unresolved.data.createIntegration.errors).toEqual([]);
    const allowed = new Client(allowing, school.admin.token);
    for (const url of ['http://[::127.0.0.1]:8080/hook', 'http://localhost:9/hook', 'http://10.0.0.1/']) {
      const res = await allowed.graphql(create, { input: input({ url }) });
      expect(res.data.createIntegration.errors, url).toEqual([]);
      expect(await stored(res.data.createIntegration.integration.id)).toEqual({ url });
    }
    // Only the address rule is lifted: the scheme still counts.
    const ftp = await allowed.graphql(create, { input: input({ url: 'ftp://localhost/' }) });
    expect(ftp.data.createIntegration.errors).toEqual([{ field: ['metaconfig', 'url'], code: 'invalid', message: 'must be an http or https URL' }]);
  });
});
