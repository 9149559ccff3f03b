import { describe, expect, it } from 'vitest';
import { ERASE, privacyFixtures } from '../support/privacy.fixtures.js';
import type { TestSchool } from '../support/service.js';
import { dataOf } from '../support/graphql.js';
import { twoSchools } from '../support/world.js';

// An erased person stays erased: the school cannot fill their profile again nor give them a credential.

let school: TestSchool;
const world = twoSchools('After Erasure School', 'Other After Erasure School', (w) => ({ school } = w));
const f = privacyFixtures(world);

describe('after an erasure', () => {
  it('given an erased student, then updating their profile or minting them a token is a 422 erased, and nothing changes', async () => {
    const ana = await f.student(school, 'Ana Gone');
    const untouched = await f.student(school, 'Bruno Stays');
    expect((await dataOf(school.admin, ERASE, { userId: String(ana.id) })).erasePerson.errors).toEqual([]);

    const refill = await school.admin.graphql('mutation ($id: ID!) { updateStudent(id: $id, input: { fullName: "Ana Again" }) { student { fullName } errors { field code message } } }', {
      id: String(ana.id),
    });
    expect(refill.data.updateStudent.errors).toEqual([expect.objectContaining({ field: ['id'], code: 'erased' })]);
    const token = await school.admin.post('/api_tokens', { api_token: { role: 'student', user_id: ana.id } });
    expect(token.status, token.text).toBe(422);
    expect(token.body.details.user_id).toEqual([{ error: 'erased' }]);
    const shown = await dataOf(school.admin, `{ student(id: ${ana.id}) { fullName } }`);
    expect(shown.student.fullName).toBe('Erased person');

    // Another person of the school is served as before.
    const renamed = await dataOf(school.admin, 'mutation ($id: ID!) { updateStudent(id: $id, input: { fullName: "Bruno Renamed" }) { student { fullName } errors { code } } }', {
      id: String(untouched.id),
    });
    expect(renamed.updateStudent).toEqual({ student: { fullName: 'Bruno Renamed' }, errors: [] });
    expect((await school.admin.post('/api_tokens', { api_token: { role: 'student', user_id: untouched.id } })).status).toBe(201);
  });
});
