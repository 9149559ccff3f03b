import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeToken } from '../../src/modules/mail/mail.links.js';
import { mailUnsubscribes } from '../../src/modules/mail/mail.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { dataOf } from '../support/graphql.js';
import { type Service, startTwoSchools, type TestSchool } from '../support/service.js';

// The one-click unsubscribe link opened in a browser (issue 28, RFC 8058): GET must not unsubscribe
// (mail scanners follow links), so it answers a page in the person's language asking to confirm,
// whose form POSTs `List-Unsubscribe=One-Click` to the same URL; that POST unsubscribes.

let service: Service;
let school: TestSchool;
let serial = 0;

beforeAll(async () => ({ service, school } = await startTwoSchools('Escola <Aurora>', 'Other Page School')));
afterAll(() => service?.stop());

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-language': 'en-US,en;q=0.9' };

async function person(locale: string | null) {
  const [row] = await service.db
    .insert(users)
    .values({ schoolId: school.id, type: 'Student', fullName: `Page ${++serial}`, email: `page${serial}@example.com`, locale })
    .returning();
  return { id: row.id, url: `/mails/unsubscribe?token=${encodeURIComponent(unsubscribeToken(school.id, row.id))}` };
}
const unsubscribed = async (userId: number) => (await service.db.select().from(mailUnsubscribes).where(eq(mailUnsubscribes.userId, userId))).length > 0;
const open = (url: string, headers: Record<string, string> = BROWSER) => service.app.inject({ method: 'GET', url, headers });

describe('the unsubscribe page', () => {
  it('GET shows a form in the person\u2019s language and unsubscribes nobody; the form\u2019s POST does', async () => {
    const p = await person('es');
    const res = await open(p.url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<html lang="es">');
    expect(res.body).toContain('Dejar de recibir los correos de Escola &#60;Aurora&#62;');
    // A plain form posting the RFC 8058 body to the page's own URL; no script (the page's CSP allows none).
    expect(res.body).toMatch(/<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Darme de baja<\/button><\/form>/);
    expect(res.body).not.toMatch(/<script/i);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(await unsubscribed(p.id)).toBe(false);
    // Opened again (a scanner, then the person): still nothing.
    await open(p.url);
    expect(await unsubscribed(p.id)).toBe(false);

    // What the browser sends when the button is pressed.
    const done = await service.app.inject({
      method: 'POST',
      url: p.url,
      headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['content-type']).toMatch(/^text\/html/);
    expect(done.body).toContain('Listo: no recibirás más correos opcionales de Escola &#60;Aurora&#62;.');
    expect(await unsubscribed(p.id)).toBe(true);
    // Opened after: says it is done, no form.
    const after = await open(p.url);
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain('<form');
  });

  it('the school\u2019s language when the person has none (Portuguese)', async () => {
    const p = await person(null);
    const res = await open(p.url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="pt-BR">');
    expect(res.body).toContain('Cancelar inscrição');
  });

  it('an invalid, forged or missing token: a page saying so (400) in the browser\u2019s language, never a stack trace', async () => {
    const p = await person('pt-BR');
    const forged = p.url.replace(/token=([^&]{4})/, 'token=AAAA');
    for (const url of ['/mails/unsubscribe?token=abc.def', forged, '/mails/unsubscribe', '/mails/unsubscribe?token=']) {
      const res = await open(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<html lang="en">');
      expect(res.body).toContain('This unsubscribe link is invalid or has expired.');
      expect(res.body).not.toMatch(/at .*\.ts|Error:/);
    }
    const spanish = await open('/mails/unsubscribe?token=abc.def', { ...BROWSER, 'accept-language': 'es-419' });
    expect(spanish.body).toContain('Enlace no válido');
    // The form posting a bad token: the same page, 400.
    const post = await service.app.inject({ method: 'POST', url: '/mails/unsubscribe?token=abc.def', headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(post.statusCode).toBe(400);
    expect(post.body).toContain('This unsubscribe link is invalid or has expired.');
    expect(await unsubscribed(p.id)).toBe(false);
  });

  it('an API client gets JSON from the same GET (and GraphQL the same answer), changing nothing', async () => {
    const p = await person('en');
    const res = await service.anonymous.get(p.url);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ valid: true, unsubscribed: false, locale: 'en', school_name: 'Escola <Aurora>' });
    expect((await service.anonymous.get('/mails/unsubscribe?token=abc.def')).body).toEqual({ valid: false, unsubscribed: false, locale: null, school_name: null });
    const data = await dataOf(service.anonymous, `query ($t: String) { mailUnsubscribeLink(token: $t) { valid unsubscribed locale schoolName } }`, { t: new URL(p.url, 'http://x').searchParams.get('token') });
    expect(data.mailUnsubscribeLink).toEqual({ valid: true, unsubscribed: false, locale: 'en', schoolName: 'Escola <Aurora>' });
    expect(await unsubscribed(p.id)).toBe(false);
  });
});
