import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Role } from '../../src/auth/credential.js';
import { hostCredentials, libraries } from '../../src/modules/library/library.table.js';
import { users } from '../../src/modules/users/user.table.js';
import type { Client, Service, TestSchool } from './service.js';

/** Factories and assertions shared by the library and host-credential tests. */
let serial = 0;

export function libraryFixtures(service: Service) {
  /** A credential of `role` in the school, bound to a new user of the matching type where the role has one. */
  async function as(s: TestSchool, role: Exclude<Role, 'platform' | 'admin'>): Promise<Client> {
    if (role === 'app') return service.token('app', s.id);
    const type = role === 'student' ? 'Student' : 'Collaborator';
    const [user] = await service.db
      .insert(users)
      .values({ schoolId: s.id, type, fullName: `${type} ${++serial}`, email: `lib-${role}${serial}-${s.id}@example.com` })
      .returning();
    return service.token(role, s.id, user.id);
  }

  /** Another library of the school, straight into the table. */
  async function library(s: TestSchool, name = `Library ${++serial}`) {
    const [row] = await service.db.insert(libraries).values({ schoolId: s.id, name }).returning();
    return row;
  }

  async function credentialRow(id: number) {
    const [row] = await service.db.select().from(hostCredentials).where(eq(hostCredentials.id, id));
    return row;
  }

  const allCredentials = () => service.db.select().from(hostCredentials).orderBy(asc(hostCredentials.id));

  /** Runs `work` and checks that the host_credentials table is exactly as before. */
  async function expectNoCredentialWrite<T>(work: () => Promise<T>): Promise<T> {
    const before = await allCredentials();
    const result = await work();
    expect(await allCredentials()).toEqual(before);
    return result;
  }

  return { as, library, credentialRow, allCredentials, expectNoCredentialWrite };
}

/** The GraphQL error codes of a reply (extensions.code), in order. */
export const errorCodes = (res: { errors?: { extensions?: { code?: string } }[] }) => (res.errors ?? []).map((e) => e.extensions?.code);

export const ids = (list: { id: number | string }[]) => list.map((x) => Number(x.id));
