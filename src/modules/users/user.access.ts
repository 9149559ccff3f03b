import { crud, ENROLLERS, MANAGERS, type ModuleRules, reads, type Rule, STAFF_AND_OWN, STAFF_READ } from '../../auth/role-matrix.js';

/**
 * The users module's rows of the role matrix, apart from its declaration because its resolvers
 * read them (`ownUserFor`: an `own` row reaches only the caller's user).
 */
// Staff read; a student reads only itself and others only as author names. A person's
// password is set only by that person or a manager (checked in user.rules.ts).
export const peopleRows: Readonly<Record<string, Rule>> = {
  'Query.student': STAFF_AND_OWN,
  'Query.students': STAFF_READ,
  ...reads('collaborator', 'collaborators', STAFF_READ),
  ...reads('admin', 'admins', STAFF_READ),
  'Mutation.createStudent': ENROLLERS,
  'Mutation.updateStudent': { ...ENROLLERS, student: 'own' },
  'Mutation.createCollaborator': MANAGERS,
  'Mutation.updateCollaborator': { ...MANAGERS, collaborator: 'own' },
  'Mutation.createAdmin': MANAGERS,
  'Mutation.updateAdmin': MANAGERS,
  // Whoever may add a student may invite one (a person of the school again, too).
  'Mutation.invitePerson': ENROLLERS,
  // A person's addresses: staff manage anyone's; a student reads and writes its own.
  ...reads('address', 'addresses', STAFF_AND_OWN),
  ...crud('Address', { ...ENROLLERS, student: 'own' }),
};

export const userRules = {
  operations: { people: peopleRows },
  fields: {
    'Student.email': 'personal',
    'Student.document': 'personal',
    'Student.phone': 'personal',
    'Collaborator.email': 'personal',
    'Collaborator.document': 'personal',
    'Collaborator.phone': 'personal',
    'Admin.email': 'personal',
    'Admin.document': 'personal',
    'Admin.phone': 'personal',
  },
} satisfies ModuleRules;
