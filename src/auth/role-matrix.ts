import type { Role } from './credential.js';

/**
 * The role matrix: the only place that says who may do what. Every GraphQL root field (and so
 * every REST route, which runs one) has a row; `auth/guard.ts` reads it for every request, the
 * README renders it, and the isolation test walks it. A root field without a row stops start-up.
 *
 * - `allow`: the role may call it; the school's rows (a platform credential: every school's).
 * - `own`: the role may call it, and sees or changes only its own rows (the resolver filters them:
 *   a student's enrollments, orders, messages, notifications, posts; content its active
 *   enrollments release).
 * - `deny` (or absent): 403.
 * - `public`: needs no credential at all.
 * - `gate`: what a mutation may still do for a school whose status lets its credentials only read
 *   (blocked, suspended: the gate in auth/school-gate.ts). `reads`: it writes nothing
 *   (a SCORM launch mints a signed URI), so it passes as a query does. `lifecycle`: sent with an
 *   `event` alone, it passes when the lifecycle lets the caller fire that event from the school's
 *   status (its admin's `cancel`: a school can always cancel itself). Any other mutation: 403.
 */
export type Access = 'allow' | 'own' | 'deny';
export type Rule = Readonly<Partial<Record<Role, Access>>> & { readonly public?: true; readonly gate?: 'reads' | 'lifecycle' };
export const ROLES: readonly Role[] = ['platform', 'admin', 'collaborator', 'app', 'student'];

const all = (access: Access, roles: readonly Role[]) => Object.fromEntries(roles.map((r) => [r, access])) as Partial<Record<Role, Access>>;

/** The platform and the school's admin: settings, people's credentials, secrets. */
const MANAGERS: Rule = all('allow', ['platform', 'admin']);
/** Content and teaching: the managers and collaborators (an app reads content, never writes it). */
const AUTHORS: Rule = all('allow', ['platform', 'admin', 'collaborator']);
/** Commerce and enrolment: the managers and integrations (a collaborator teaches, it does not sell). */
const SELLERS: Rule = all('allow', ['platform', 'admin', 'app']);
/** Every staff role reads the school's records; a student may not. */
const STAFF_READ: Rule = all('allow', ['platform', 'admin', 'collaborator', 'app']);
/** Enrolment writes: staff and integrations. */
const ENROLLERS: Rule = all('allow', ['platform', 'admin', 'collaborator', 'app']);
/** The catalogue a student may buy: every role reads it. */
const CATALOGUE: Rule = all('allow', ['platform', 'admin', 'collaborator', 'app', 'student']);
/** Staff read all; a student only its own rows (or the content its active enrollments release). */
const STAFF_AND_OWN: Rule = { ...STAFF_READ, student: 'own' };
/** Posts anyone of the school writes; a student edits only its own. */
const POSTS: Rule = { ...AUTHORS, app: 'allow', student: 'own' };
const PLATFORM: Rule = { platform: 'allow' };
const PUBLIC: Rule = { ...CATALOGUE, public: true };

const crud = (resource: string, write: Rule): Record<string, Rule> => ({
  [`Mutation.create${resource}`]: write,
  [`Mutation.update${resource}`]: write,
  [`Mutation.delete${resource}`]: write,
});
const reads = (one: string, many: string, read: Rule): Record<string, Rule> => ({ [`Query.${one}`]: read, [`Query.${many}`]: read });
/** A resource's show and list queries (`read`) and its create, update and delete mutations (`write`). */
const resource = (one: string, many: string, read: Rule, write: Rule): Record<string, Rule> => ({
  ...reads(one, many, read),
  ...crud(one[0].toUpperCase() + one.slice(1), write),
});

export const operationRules: Readonly<Record<string, Rule>> = {
  // Schools: every credential reads its own school (secret fields are guarded apart); the
  // platform creates and deletes; the admin edits settings (lifecycle events: see school.state.ts).
  ...reads('school', 'schools', CATALOGUE),
  'Mutation.createSchool': PLATFORM,
  'Mutation.deleteSchool': PLATFORM,
  'Mutation.schoolWizard': PLATFORM,
  'Mutation.updateSchool': { ...MANAGERS, gate: 'lifecycle' },
  // Credentials (auth-tokens/): made and revoked by the platform (the wizard hands out an admin's).
  'Mutation.createApiToken': PLATFORM,
  'Mutation.revokeApiToken': PLATFORM,

  // People: staff read; a student reads only itself and others only as author names. A person's
  // password is set only by that person or a manager (checked in users/user.rules.ts).
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

  // The catalogue: products, topics, courses, modules, paths, payment options, categories, images.
  ...resource('schoolProduct', 'schoolProducts', CATALOGUE, AUTHORS),
  'Mutation.addCourseToSchoolProduct': AUTHORS,
  'Mutation.removeCourseFromSchoolProduct': AUTHORS,
  'Mutation.moveCourseInSchoolProduct': AUTHORS,
  'Mutation.addPathToSchoolProduct': AUTHORS,
  'Mutation.removePathFromSchoolProduct': AUTHORS,
  'Mutation.movePathInSchoolProduct': AUTHORS,
  ...resource('schoolProductTopic', 'schoolProductTopics', CATALOGUE, AUTHORS),
  ...resource('course', 'courses', CATALOGUE, AUTHORS),
  'Mutation.duplicateCourse': AUTHORS,
  ...resource('courseModule', 'courseModules', CATALOGUE, AUTHORS),
  ...resource('path', 'paths', CATALOGUE, AUTHORS),
  'Mutation.addCourseToPath': AUTHORS,
  'Mutation.removeCourseFromPath': AUTHORS,
  ...resource('category', 'categories', CATALOGUE, AUTHORS),
  ...resource('image', 'images', CATALOGUE, AUTHORS),
  ...reads('paymentOption', 'paymentOptions', CATALOGUE),
  'Mutation.createPaymentOption': MANAGERS,
  'Mutation.updatePaymentOption': MANAGERS,

  // Released content: a student reads it only through an active enrollment of its own.
  ...resource('lesson', 'lessons', STAFF_AND_OWN, AUTHORS),
  ...resource('activity', 'activities', STAFF_AND_OWN, AUTHORS),
  'Query.examQuestion': STAFF_READ,
  ...resource('media', 'mediaList', STAFF_AND_OWN, AUTHORS),
  'Mutation.reprocessMedia': AUTHORS,
  // A launch or a preview only reads (GET /media/:id/launch_scorm): a suspended school's students still open their content.
  'Mutation.previewMedia': { ...AUTHORS, gate: 'reads' },
  'Mutation.launchScorm': { ...AUTHORS, student: 'own', gate: 'reads' },
  'Mutation.reportMediaProcessing': { platform: 'allow', app: 'allow' },
  'Query.publicMedia': PUBLIC,
  'Query.scormLaunch': PUBLIC,
  ...resource('extraContent', 'extraContents', STAFF_READ, AUTHORS),
  ...resource('courseClass', 'courseClasses', STAFF_READ, AUTHORS),

  // The content library and its host credentials (write-only secrets): staff material.
  ...resource('library', 'libraries', STAFF_READ, AUTHORS),
  ...resource('libraryResource', 'libraryResources', STAFF_READ, AUTHORS),
  ...resource('hostCredential', 'hostCredentials', MANAGERS, MANAGERS),

  // A student's own learning: enrollments, registrations, exam answers.
  ...reads('enrollment', 'enrollments', STAFF_AND_OWN),
  'Query.enrollmentStatus': STAFF_AND_OWN,
  'Mutation.createEnrollment': ENROLLERS,
  'Mutation.createEnrollments': ENROLLERS,
  'Mutation.updateEnrollment': ENROLLERS,
  ...reads('registration', 'registrations', STAFF_AND_OWN),
  'Mutation.createRegistration': ENROLLERS,
  ...reads('examAnswer', 'examAnswers', STAFF_AND_OWN),
  'Mutation.createExamAnswer': { ...ENROLLERS, student: 'own' },
  'Mutation.updateExamAnswer': { ...ENROLLERS, student: 'own' },
  'Mutation.deleteExamAnswer': AUTHORS,
  ...resource('examQuestionAnswer', 'examQuestionAnswers', STAFF_AND_OWN, { ...ENROLLERS, student: 'own' }),

  // Progress (progress/): staff read it; the managers and integrations write it, a student its own
  // (through its own enrollment). Anyone verifies a certificate by its code.
  'Query.lessonProgresses': STAFF_AND_OWN,
  'Query.activityAttempts': STAFF_AND_OWN,
  'Mutation.recordLessonProgress': { ...SELLERS, student: 'own' },
  'Mutation.submitActivityAttempt': { ...SELLERS, student: 'own' },
  'Query.certificate': PUBLIC,

  // Commerce: orders (a student reads its own), coupons, gateway credentials.
  ...reads('order', 'orders', STAFF_AND_OWN),
  'Mutation.createOrder': SELLERS,
  'Mutation.updateOrder': SELLERS,
  'Mutation.cancelOrder': SELLERS,
  'Mutation.importOrder': SELLERS,
  ...reads('coupon', 'coupons', STAFF_READ),
  'Mutation.createCoupon': SELLERS,
  'Mutation.updateCoupon': SELLERS,
  ...reads('couponToken', 'couponTokens', STAFF_READ),
  'Mutation.createCouponToken': SELLERS,
  'Mutation.updateCouponToken': SELLERS,
  ...reads('gatewayCredential', 'gatewayCredentials', MANAGERS),
  'Mutation.createGatewayCredential': MANAGERS,
  'Mutation.updateGatewayCredential': MANAGERS,

  // Forums and collaborative discussions: the school's students read them and write their own posts.
  ...resource('forum', 'forums', CATALOGUE, AUTHORS),
  ...resource('forumSection', 'forumSections', CATALOGUE, AUTHORS),
  'Query.forumQuestion': CATALOGUE,
  'Query.forumQuestions': CATALOGUE,
  ...crud('ForumQuestion', POSTS),
  'Mutation.moveForumQuestion': POSTS,
  'Query.forumAnswer': CATALOGUE,
  ...crud('ForumAnswer', POSTS),
  ...resource('collaborativeDiscussion', 'collaborativeDiscussions', CATALOGUE, AUTHORS),
  ...resource('collaborativeComment', 'collaborativeComments', CATALOGUE, POSTS),

  // Messages and notifications: a student reads its own and marks its own read.
  ...resource('channel', 'channels', STAFF_AND_OWN, AUTHORS),
  ...resource('message', 'messages', STAFF_AND_OWN, ENROLLERS),
  ...reads('notification', 'notifications', STAFF_AND_OWN),
  'Mutation.createNotification': ENROLLERS,
  'Mutation.toggleNotificationRead': STAFF_AND_OWN,
  // Subscriptions (over WebSocket, graphql/subscriptions.ts): the readers of the same rows.
  'Subscription.notificationReceived': STAFF_AND_OWN,
  'Subscription.messageCreated': STAFF_AND_OWN,

  // Integrations: their settings hold secrets; the school suggests new ones to the platform.
  ...resource('integration', 'integrations', MANAGERS, MANAGERS),
  'Mutation.suggestIntegration': AUTHORS,
  'Query.integrationSuggestions': PLATFORM,

  // The pull feed of events: for those who integrate (the platform, the admin, app credentials).
  // Not collaborators: events carry commerce (orders, payments) and people's notifications, which a
  // collaborator's role does not read; not students.
  'Query.events': SELLERS,
  'Subscription.events': SELLERS,
  // Webhook deliveries (webhooks/): an integration's settings, so the managers'.
  'Query.webhookDeliveries': MANAGERS,
  'Mutation.redeliverWebhook': MANAGERS,
  'Mutation.redeliverFailedWebhooks': MANAGERS,
  'Mutation.rotateIntegrationSecret': MANAGERS,
};

/**
 * Field rules: who sees a field of an object, wherever the object is reached. A role that may not
 * see it reads null (the field is nullable for that reason; a list reads empty), so a new query
 * returning the type cannot leak it.
 * - `secret`: tokens and keys, to the platform and the school's admin only.
 * - `personal`: e-mail, document, phone and address of a person, to staff and to the person.
 */
export type FieldRule = 'secret' | 'personal';
export const fieldRules: Readonly<Record<string, FieldRule>> = {
  'School.crmToken': 'secret',
  'School.videoAccessToken': 'secret',
  'School.videoKey': 'secret',
  'Library.hostCredentials': 'secret',
  'Integration.signingSecret': 'secret',
  'CreateApiTokenPayload.token': 'secret',
  'Student.email': 'personal',
  'Student.document': 'personal',
  'Student.phone': 'personal',
  'Collaborator.email': 'personal',
  'Collaborator.document': 'personal',
  'Collaborator.phone': 'personal',
  'Admin.email': 'personal',
  'Admin.document': 'personal',
  'Admin.phone': 'personal',
  'MessageSender.email': 'personal',
};

/** Who reads a field of each rule; `self` lets the person read its own. */
export const fieldReaders: Readonly<Record<FieldRule, { roles: readonly Role[]; self: boolean }>> = {
  secret: { roles: ['platform', 'admin'], self: false },
  personal: { roles: ['platform', 'admin', 'collaborator', 'app'], self: true },
};

/** What a role gets for an operation: absent rows and absent roles are denied. */
export function accessOf(rule: Rule | undefined, role: Role): Access {
  return rule?.[role] ?? 'deny';
}
