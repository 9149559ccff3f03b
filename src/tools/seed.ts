import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isInputObjectType, type GraphQLSchema } from 'graphql';
import { issueToken, type Role } from '../auth/credential.js';
import { config } from '../config.js';
import type { Database } from '../db/client.js';
import { checkSettings, open } from '../startup.js';
import { CommandError, databaseLine, parseFlags, run } from './cli.js';
import { errorLog, firstError, inProcess, overHttp, runningEmbeddedService, type SendGraphQL } from './service-client.js';

/**
 * The demo school, "Demo School" at subdomain `demo`: a small language school with products,
 * courses, paths, media, students, enrollments, paid orders, a forum, a channel, notifications and
 * an integration. Everything is made through the service's own GraphQL API (in process, or over
 * HTTP to the service that runs on the embedded database), as a client would, so the data obeys every rule the service enforces. The subdomain `demo` is set
 * last: a school there means a finished seed, and a second run only prints fresh tokens.
 * `npm run seed` runs main() below; tests call seed() on their own database.
 */
export const DEMO_SUBDOMAIN = 'demo';
const PASSWORD = 'demo-password';
const emails = {
  admin: 'director@demo-school.example',
  collaborator: 'lucia.romero@demo-school.example',
};
const students = [
  ['Ana Souza', 'ana.souza@example.com'],
  ['Kenji Watanabe', 'kenji.watanabe@example.com'],
  ['Fatima El Amrani', 'fatima.elamrani@example.com'],
  ['Lukas Becker', 'lukas.becker@example.com'],
  ['Priya Raman', 'priya.raman@example.com'],
  ['Tomás Herrera', 'tomas.herrera@example.com'],
] as const;

export interface SeedResult {
  schoolId: number;
  /** The school's admin (director@demo-school.example) and Ana's enrollment: ids vary, a failed run uses some up. */
  adminId: number;
  enrollmentId: number;
  /** false when the demo school was there already (nothing was created). */
  created: boolean;
  tokens: Record<Role, string>;
}

/** A failed step: one line naming it. */
export class SeedError extends CommandError {}

type Data = Record<string, any>;

/** Seeds the demo school on `database`, in process (the tests' way, and the CLI's when it owns the database). */
export async function seed(database: Database, log: (line: string) => void = console.log): Promise<SeedResult> {
  // Loaded here, not at the top: a refused command line or setting answers at once, not after the service's modules load.
  const { createApp } = await import('../app.js');
  // Its log says what a client sees only as INTERNAL_SERVER_ERROR: a failed step prints that cause.
  const errors = errorLog();
  const app = await createApp({ database, rateLimit: { enabled: false }, logger: true, logStream: errors });
  try {
    return await seedThrough(inProcess(app, errors), await issueToken(database.db, { role: 'platform', label: 'seed' }), log);
  } finally {
    await app.close();
  }
}

/** Seeds the demo school through the service's GraphQL API (`send`) with a platform token. */
export async function seedThrough(send: SendGraphQL, platform: string, log: (line: string) => void = console.log): Promise<SeedResult> {
  const schema = await (await import('../service-modules.js')).appSchema();

  /** Runs one operation; GraphQL errors or payload errors stop the seed naming `step`. */
  async function gql(step: string, token: string, query: string, variables: Data = {}, schoolId?: number): Promise<Data> {
    const body = await send(token, { query, variables }, schoolId);
    if (body.errors?.length) throw new SeedError(`seed failed at "${step}": ${firstError(body)}`);
    const result = Object.values(body.data ?? {})[0] as Data;
    const errors = (result?.errors ?? []) as { field: string[]; code: string; message: string }[];
    if (errors.length)
      throw new SeedError(`seed failed at "${step}": ${errors.map((e) => `${[e.field.join('.'), e.code].filter(Boolean).join(' ')} (${e.message})`).join('; ')}`);
    return result;
  }

  const found = await gql('find the demo school', platform, `query ($subdomain: String) { schools(subdomain: $subdomain, first: 1) { nodes { id } } }`, {
    subdomain: DEMO_SUBDOMAIN,
  });
  const existing = found.nodes[0] as { id: string } | undefined;
  let schoolId: number;
  if (existing) {
    schoolId = Number(existing.id);
    log(`The demo school exists (id ${schoolId}, subdomain ${DEMO_SUBDOMAIN}): nothing created; fresh tokens below.`);
  } else {
    schoolId = await build(gql, platform, schema, log);
  }
  const { tokens, adminId } = await tokensFor(gql, platform, schoolId);
  const mine = await gql("Ana's enrollment", tokens.student, `query { enrollments(first: 1) { nodes { id } } }`);
  const enrollmentId = Number(mine.nodes[0].id);
  // Shell lines named as the README's examples name them: paste them and run the examples. The ids
  // too: a fresh database's are 1, but a failed run (or another school) uses some up.
  const names: Record<Role, string> = { platform: 'TOKEN', admin: 'ADMIN', collaborator: 'COLLABORATOR', app: 'APP', student: 'STUDENT' };
  log('');
  log('Demo ids and tokens (Authorization: Bearer <token>), ready to paste into a shell:');
  log(`export SCHOOL=${schoolId}   # the demo school`);
  log(`export ADMIN_ID=${adminId}   # its admin, ${emails.admin}`);
  log(`export ENROLLMENT=${enrollmentId}   # the enrollment of the student Ana Souza`);
  for (const [role, token] of Object.entries(tokens)) log(`export ${names[role as Role]}=${token}   # ${role}`);
  return { schoolId, adminId, enrollmentId, created: !existing, tokens };
}

type Gql = (step: string, token: string, query: string, variables?: Data, schoolId?: number) => Promise<Data>;
const E = 'errors { field code message }';

/** One token per role, made through the API; the people are found by their e-mails. */
async function tokensFor(gql: Gql, platform: string, schoolId: number): Promise<{ tokens: Record<Role, string>; adminId: number }> {
  const find = async (kind: 'admins' | 'collaborators' | 'students', email: string) => {
    const data = await gql(`find ${kind} ${email}`, platform, `query ($email: EmailAddress) { ${kind}(email: $email, first: 1) { nodes { id } } }`, { email }, schoolId);
    const id = data.nodes[0]?.id;
    if (!id) throw new SeedError(`seed failed at "tokens": the demo school (id ${schoolId}) has no ${kind.slice(0, -1)} ${email}`);
    return id as string;
  };
  const grant = async (role: Role, userId: string | null = null) =>
    (
      await gql(`${role} token`, platform, `mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token ${E} } }`, {
        input: { role, schoolId: String(schoolId), userId, label: 'seed' },
      })
    ).token as string;
  const adminId = await find('admins', emails.admin);
  const tokens = {
    platform,
    admin: await grant('admin', adminId),
    collaborator: await grant('collaborator', await find('collaborators', emails.collaborator)),
    app: await grant('app'),
    student: await grant('student', await find('students', students[0][1])),
  };
  return { tokens, adminId: Number(adminId) };
}

const hasField = (schema: GraphQLSchema, type: string, field: string) => {
  const t = schema.getType(type);
  return isInputObjectType(t) && field in t.getFields();
};
const hasMutation = (schema: GraphQLSchema, name: string) => Boolean(schema.getMutationType()?.getFields()[name]);

/** Creates the school and its content; returns the school's id. */
async function build(gql: Gql, platform: string, schema: GraphQLSchema, log: (line: string) => void): Promise<number> {
  const wizard = await gql(
    'school wizard',
    platform,
    `mutation ($input: SchoolWizardInput!) { schoolWizard(input: $input) { school { id } library { id } forum { id } admin { id credentials } ${E} } }`,
    { input: { name: 'Demo School', email: emails.admin, password: PASSWORD } },
  );
  const schoolId = Number(wizard.school.id);
  const admin = wizard.admin.credentials as string;
  const adminId = Number(wizard.admin.id);
  const as = (step: string, query: string, variables: Data = {}) => gql(step, admin, query, variables);
  try {
    await as('school details', `mutation ($id: ID!, $input: UpdateSchoolInput!) { updateSchool(id: $id, input: $input) { school { id } ${E} } }`, {
      id: schoolId,
      input: { companyName: 'Demo School Languages Ltd', phone: '+44 20 7946 0000', site: 'https://demo-school.example', seoTitle: 'Demo School: languages online' },
    });

    // People: a teacher (collaborator) and six students, each registered.
    const teacher = await as('collaborator', `mutation ($input: PersonInput!) { createCollaborator(input: $input) { collaborator { id } ${E} } }`, {
      input: { fullName: 'Lucía Romero', email: emails.collaborator, password: PASSWORD, phone: '+44 20 7946 0101' },
    });
    const teacherId = Number(teacher.collaborator.id);
    const people: { studentId: number; registrationId: number }[] = [];
    for (const [fullName, email] of students) {
      const s = await as(`student ${email}`, `mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } ${E} } }`, {
        input: { fullName, email, password: PASSWORD },
      });
      const r = await as(`registration of ${email}`, `mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id } ${E} } }`, {
        input: { studentId: s.student.id },
      });
      people.push({ studentId: Number(s.student.id), registrationId: Number(r.registration.id) });
    }

    // Library: the resource products and media point at.
    const resource = await as(
      'library resource',
      `mutation ($libraryId: ID!, $input: LibraryResourceInput!) { createLibraryResource(libraryId: $libraryId, input: $input) { libraryResource { id } ${E} } }`,
      { libraryId: wizard.library.id, input: { title: 'Course videos', kind: 'video', url: 'https://videos.demo-school.example/' } },
    );
    const libraryResourceId = resource.libraryResource.id;
    const mediaQuery = `mutation ($input: MediaInput!) { createMedia(input: $input) { media { id } ${E} } }`;
    const video = await as('video media', mediaQuery, {
      input: { title: 'Welcome to English A1', type: 'Media', hostKey: 'vid-en-a1-welcome', libraryResourceId, text: 'A two-minute tour of the course.' },
    });
    const scorm = await as('SCORM media', mediaQuery, {
      input: {
        title: 'Pronunciation lab (SCORM)',
        type: 'ScormPackage',
        hostKey: 'scorm-pronunciation-lab',
        libraryResourceId,
        storageFileUrl: 'https://files.demo-school.example/scorm/pronunciation-lab.zip',
      },
    });

    // Courses: modules, lessons (the first lesson plays the video), and one exam.
    const catalogue = [
      { code: 'EN-A1', name: 'English A1: First Steps', modules: [['Hello and goodbye', ['Greetings', 'Numbers and the alphabet', 'Pronunciation lab']], ['Everyday life', ['Family and friends', 'A1 final exam']]] },
      { code: 'EN-B1', name: 'English B1: Conversation', modules: [['Talking about the past', ['Past simple stories', 'Used to']], ['Making plans', ['Future forms', 'Invitations']]] },
      { code: 'EN-BIZ', name: 'Business English: Meetings and E-mail', modules: [['Meetings', ['Opening a meeting', 'Agreeing and disagreeing']], ['Writing', ['Formal e-mails', 'Follow-ups']]] },
      { code: 'ES-A1', name: 'Spanish A1: ¡Hola!', modules: [['Primeros pasos', ['Saludos', 'Los números']], ['En la ciudad', ['Pedir direcciones', 'En el café']]] },
    ] as const;
    const courseIds: Record<string, string> = {};
    const lessonIds: string[] = [];
    let examLessonId = '';
    for (const c of catalogue) {
      const course = await as(`course ${c.code}`, `mutation ($input: CourseInput!) { createCourse(input: $input) { course { id } ${E} } }`, {
        input: { name: c.name, code: c.code, duration: 20, ready: true, description: `${c.name}: live classes, videos and exercises.` },
      });
      courseIds[c.code] = course.course.id;
      for (const [moduleName, lessons] of c.modules) {
        const m = await as(
          `module ${moduleName}`,
          `mutation ($courseId: ID!, $input: CourseModuleInput!) { createCourseModule(courseId: $courseId, input: $input) { courseModule { id } ${E} } }`,
          { courseId: course.course.id, input: { name: moduleName, description: `${moduleName} (${c.code})` } },
        );
        for (const title of lessons) {
          const exam = title.endsWith('exam');
          const mediaId = title === 'Greetings' ? video.media.id : title === 'Pronunciation lab' ? scorm.media.id : undefined;
          const l = await as(`lesson ${title}`, `mutation ($input: LessonInput!) { createLesson(input: $input) { lesson { id } ${E} } }`, {
            input: { title, type: exam ? 'Exam' : 'Video', available: true, courseModuleId: m.courseModule.id, mediaId, ...(exam ? { minGrade: 60 } : {}) },
          });
          if (exam) examLessonId = l.lesson.id;
          else if (c.code === 'EN-A1') lessonIds.push(l.lesson.id);
        }
      }
    }
    // An extra content: the first A1 lesson's video again, as material to keep.
    await as('extra content', `mutation ($input: ExtraContentInput!) { createExtraContent(input: $input) { extraContent { id } ${E} } }`, {
      input: { title: 'Greetings: the video to keep', resourceType: 'Lesson', resourceId: lessonIds[0], mediaId: video.media.id, order: 0, downloadable: true, available: true },
    });
    const choice = (title: string, options: [string, boolean][]) => ({
      title,
      type: 'multiple_choice',
      point: 1,
      optionsAttributes: options.map(([t, correct]) => ({ title: t, correct })),
    });
    const exam = await as('exam activity', `mutation ($input: ActivityInput!) { createActivity(input: $input) { activity { id questions { id type options { id correct } } } ${E} } }`, {
      input: {
        title: 'A1 final exam',
        type: 'exam',
        showComments: 'always',
        examLessonId,
        maxAttempts: 3,
        timeLimit: 30,
        examQuestionsAttributes: [
          choice('"How are you?" - pick the best answer.', [["I'm fine, thanks.", true], ['I am 20 years.', false], ['Yes, I am.', false]]),
          choice('Which is the plural of "child"?', [['childs', false], ['children', true], ['childrens', false]]),
          choice('"She ___ two brothers."', [['have', false], ['has', true], ['is', false]]),
          { title: 'Write three sentences about your family.', type: 'essay', point: 2 },
        ],
      },
    });

    // Learning paths.
    const pathQuery = `mutation ($input: CreatePathInput!) { createPath(input: $input) { path { id } ${E} } }`;
    const pathA = await as('path English A1 to B1', pathQuery, {
      input: { name: 'English: from A1 to B1', code: 'PATH-EN', description: 'Beginner to independent speaker in two courses.', courseIds: [courseIds['EN-A1'], courseIds['EN-B1']] },
    });
    const pathB = await as('path Career English', pathQuery, {
      input: { name: 'Career English', code: 'PATH-CAREER', description: 'Conversation, then the English of work.', courseIds: [courseIds['EN-B1'], courseIds['EN-BIZ']] },
    });

    // Products, their topics and (when the schema has it) what they are made of.
    const composed = hasField(schema, 'SchoolProductInput', 'courseIds') && hasField(schema, 'SchoolProductInput', 'pathIds');
    if (!composed) log('Note: this schema has no SchoolProductInput.courseIds/pathIds: products are made without their courses and paths.');
    const products = [
      { title: 'English Complete', subtitle: 'A1 to B1 with a teacher', courses: [], paths: [pathA.path.id], topics: ['Grammar you can use', 'Speaking from week one'] },
      { title: 'Business English', subtitle: 'Meetings, e-mail, presentations', courses: [], paths: [pathB.path.id], topics: ['Meetings', 'Professional writing'] },
      { title: 'Spanish Starter', subtitle: 'Your first 500 words', courses: [courseIds['ES-A1']], paths: [], topics: ['Travel Spanish', 'Pronunciation'] },
    ];
    const productIds: string[] = [];
    for (const p of products) {
      const created = await as(`product ${p.title}`, `mutation ($input: SchoolProductInput!) { createSchoolProduct(input: $input) { schoolProduct { id } ${E} } }`, {
        input: {
          title: p.title,
          subtitle: p.subtitle,
          description: `${p.title}: online lessons, exercises and a certificate.`,
          published: true,
          certification: true,
          certificationMinProgress: 80,
          libraryResourceId,
          ...(composed ? { courseIds: p.courses, pathIds: p.paths } : {}),
        },
      });
      productIds.push(created.schoolProduct.id);
      for (const title of p.topics)
        await as(
          `topic ${title}`,
          `mutation ($id: ID!, $input: SchoolProductTopicInput!) { createSchoolProductTopic(schoolProductId: $id, input: $input) { schoolProductTopic { id } ${E} } }`,
          { id: created.schoolProduct.id, input: { title, description: `${title} in ${p.title}.` } },
        );
    }

    // Enrollments: every student in English Complete, some in the others too.
    const enrollInputs = [
      ...people.map((p) => [p.registrationId, productIds[0]] as const),
      [people[1].registrationId, productIds[1]] as const,
      [people[3].registrationId, productIds[1]] as const,
      [people[5].registrationId, productIds[2]] as const,
    ].map(([registrationId, schoolProductId]) => ({ registrationId, schoolProductId, status: 'active', unlimited: true, maxAttendanceType: 'indeterminate' }));
    const enrolled = await as('enrollments', `mutation ($inputs: [EnrollmentInput!]!) { createEnrollments(inputs: $inputs) { enrollments { id } ${E} } }`, {
      inputs: enrollInputs,
    });
    const enrollmentIds = (enrolled.enrollments as { id: string }[]).map((e) => e.id);

    // Progress: the first students are under way in English A1.
    if (hasMutation(schema, 'recordLessonProgress')) {
      for (const [i, done] of [lessonIds.length, 2, 1].entries())
        for (const lessonId of lessonIds.slice(0, done))
          await as(
            'lesson progress',
            `mutation ($e: ID!, $l: ID!, $input: LessonProgressInput!) { recordLessonProgress(enrollmentId: $e, lessonId: $l, input: $input) { lessonProgress { id } ${E} } }`,
            { e: enrollmentIds[i], l: lessonId, input: { completed: true, timeSpent: 600 } },
          );
    } else log('Note: this schema has no recordLessonProgress: enrollments start with no progress.');

    // An attempt at the A1 exam, its essay awaiting grading by hand (attemptsToGrade, gradeAttempt).
    if (hasMutation(schema, 'submitActivityAttempt')) {
      const questions = exam.activity.questions as { id: string; type: string; options: { id: string; correct: boolean }[] }[];
      const answers = questions.map((q) =>
        q.type === 'essay' ? { examQuestionId: q.id, text: 'I have two brothers. My mother is a teacher. We live in Recife.' } : { examQuestionId: q.id, examQuestionOptionId: q.options.find((o) => o.correct)?.id },
      );
      await as(
        'exam attempt',
        `mutation ($e: ID!, $a: ID!, $input: ActivityAttemptInput!) { submitActivityAttempt(enrollmentId: $e, activityId: $a, input: $input) { activityAttempt { id } ${E} } }`,
        { e: enrollmentIds[0], a: exam.activity.id, input: { answers } },
      );
    }

    // Orders, paid: payment options, a gateway, a coupon with tokens, then imports.
    const gateway = await as('gateway credential', `mutation ($input: GatewayCredentialInput!) { createGatewayCredential(input: $input) { gatewayCredential { id } ${E} } }`, {
      input: { gateway: 'pagarme', name: 'Pagar.me (sandbox)', environment: 'sandbox' },
    });
    const coupon = await as('coupon', `mutation ($input: CouponInput!) { createCoupon(input: $input) { coupon { id } ${E} } }`, {
      input: { code: 'WELCOME10', discountPercent: 10, active: true },
    });
    const prices = [49000, 39000, 19000];
    const optionIds: string[] = [];
    for (const [i, productId] of productIds.entries()) {
      const o = await as(`payment option of ${products[i].title}`, `mutation ($input: PaymentOptionInput!) { createPaymentOption(input: $input) { paymentOption { id } ${E} } }`, {
        input: { schoolProductId: productId, name: `${products[i].title}: full price`, price: prices[i], installmentsMax: 10 },
      });
      optionIds.push(o.paymentOption.id);
    }
    const sales = [
      [0, 0],
      [1, 1],
      [3, 1],
      [5, 2],
    ] as const;
    for (const [n, [person, product]] of sales.entries()) {
      const t = await as(`coupon token ${n + 1}`, `mutation ($input: CouponTokenInput!) { createCouponToken(input: $input) { couponToken { id } ${E} } }`, {
        input: { couponId: coupon.coupon.id, token: `WELCOME10-${String(n + 1).padStart(3, '0')}` },
      });
      const total = prices[product];
      const paid = total - total / 10;
      const day = `2025-0${n + 1}-15T10:00:00.000Z`;
      await as(`order ${n + 1}`, `mutation ($input: ImportOrderInput!) { importOrder(input: $input) { order { id } ${E} } }`, {
        input: {
          schoolId,
          studentId: people[person].studentId,
          gatewayCredentialId: gateway.gatewayCredential.id,
          couponId: coupon.coupon.id,
          uuid: `demo-order-${n + 1}`,
          kind: 0,
          period: 0,
          status: 'confirmed',
          total,
          amountToPay: paid,
          createdAt: day,
          success: true,
          message: 'Transaction approved',
          itemsAttributes: [{ schoolId, paymentOptionId: optionIds[product], couponTokenId: t.couponToken.id, quantity: 1, total, amountToPay: paid }],
          invoicesAttributes: [
            {
              schoolId,
              amount: paid,
              occurrence: 1,
              status: 'paid',
              uuid: `demo-invoice-${n + 1}`,
              paymentsAttributes: [{ schoolId, kind: 0, status: 'confirmed', amount: paid, installments: 1, success: true, uuid: `demo-payment-${n + 1}`, cardholder: 'DEMO CARDHOLDER' }],
            },
          ],
        },
      });
    }

    // Forum: a section, a student's question, the teacher's and a classmate's answers.
    const section = await as(
      'forum section',
      `mutation ($forumId: ID, $input: ForumSectionInput!) { createForumSection(forumId: $forumId, input: $input) { forumSection { id } ${E} } }`,
      { forumId: wizard.forum.id, input: { title: 'Grammar questions', description: 'Ask about anything from the lessons.' } },
    );
    const question = await as(
      'forum question',
      `mutation ($s: ID, $input: CreateForumQuestionInput!) { createForumQuestion(forumSectionId: $s, input: $input) { forumQuestion { id } ${E} } }`,
      { s: section.forumSection.id, input: { title: 'When do I use "used to"?', description: 'Is "I used to live in Tokyo" the same as "I lived in Tokyo"?', userId: people[1].studentId } },
    );
    const answer = `mutation ($q: ID!, $input: ForumAnswerInput!) { createForumAnswer(forumQuestionId: $q, input: $input) { forumAnswer { id } ${E} } }`;
    await as('forum answer (teacher)', answer, {
      q: question.forumQuestion.id,
      input: { text: '"Used to" says it was a habit or state that is over now; the past simple just says it happened.', userId: teacherId },
    });
    await as('forum answer (student)', answer, { q: question.forumQuestion.id, input: { text: 'Thanks, that helps!', userId: people[0].studentId } });

    // A channel of English Complete with messages, and notifications.
    const channel = await as('channel', `mutation ($input: ChannelInput!) { createChannel(input: $input) { channel { id } ${E} } }`, {
      input: { name: 'English Complete: announcements', schoolProductId: productIds[0] },
    });
    const message = `mutation ($c: ID!, $input: MessageInput!) { createMessage(channelId: $c, input: $input) { message { id } ${E} } }`;
    await as('message 1', message, { c: channel.channel.id, input: { subject: 'Welcome!', text: 'Welcome to English Complete. Live class every Tuesday at 18:00.', senderId: teacherId } });
    await as('message 2', message, { c: channel.channel.id, input: { subject: 'Exam week', text: 'The A1 final exam opens on Monday: three attempts, 30 minutes.', senderId: adminId } });
    for (const [i, p] of people.slice(0, 3).entries())
      await as(`notification ${i + 1}`, `mutation ($s: ID, $input: NotificationInput!) { createNotification(studentId: $s, input: $input) { notification { id } ${E} } }`, {
        s: p.studentId,
        input: { text: 'Your certificate is getting close: keep going!', url: 'https://demo.localhost/certificates' },
      });

    // An integration: the school's CRM hears of new enrollments and paid orders.
    await as('integration', `mutation ($input: IntegrationInput!) { createIntegration(input: $input) { integration { id } ${E} } }`, {
      input: {
        ownerType: 'School',
        ownerId: schoolId,
        type: 'webhook',
        active: true,
        metadata: { events: ['enrollment.created', 'order.confirmed'] },
        metaconfig: { url: 'https://crm.demo-school.example/hooks/lp', secret: 'demo-webhook-secret' },
      },
    });

    // Last: the subdomain that marks the demo school as complete.
    await as('subdomain', `mutation ($id: ID!, $input: UpdateSchoolInput!) { updateSchool(id: $id, input: $input) { school { id } ${E} } }`, {
      id: schoolId,
      input: { subdomain: DEMO_SUBDOMAIN },
    });
    log(`Created the demo school "Demo School" (id ${schoolId}, subdomain ${DEMO_SUBDOMAIN}).`);
    return schoolId;
  } catch (error) {
    // Half a school would block the next run's name and hide the failure: remove it. The ids it took
    // stay taken: setting a sequence back is safe only if nothing took one since, which a seed beside
    // a running service (or through it) cannot know; the next run prints the ids it makes instead.
    const removed = await gql('remove partial school', platform, `mutation ($id: ID!) { deleteSchool(id: $id) { school { id } ${E} } }`, { id: schoolId })
      .then(() => true)
      .catch(() => false);
    if (error instanceof SeedError) error.message += removed ? ` (the partial school ${schoolId} was removed)` : ` (the partial school ${schoolId} is left)`;
    throw error;
  }
}

const USAGE = `Usage: npm run seed   (built: node dist/src/tools/seed.js)
Creates the demo school "Demo School" (subdomain ${DEMO_SUBDOMAIN}) through the service's GraphQL API, or
finds it made, and prints its ids and a fresh token per role as shell lines.
Writes to DATABASE_URL (SECRETS_KEY required there, as the service requires it), else to the
embedded database in DATA_DIR (./.data), through the service when one runs on it.`;

/** npm run seed: DATABASE_URL, else the embedded database (through the service while one holds it). */
async function main() {
  parseFlags(USAGE, {});
  // The service's own checks first (a missing SECRETS_KEY on PostgreSQL), before anything is opened.
  checkSettings();
  const dataDir = resolve(config.dataDir ?? '.data');
  // On the embedded database a running service owns the files: seed through it, over HTTP.
  const running = config.databaseUrl ? null : runningEmbeddedService(dataDir);
  console.log(databaseLine(dataDir, running));
  if (running) {
    await seedThrough(overHttp(running.url), running.token);
    return;
  }
  const database = await open(dataDir);
  try {
    await database.migrate();
    await seed(database);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) run(main);
