import { MANAGERS, PUBLIC } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { mailEventCatalog } from './mail.events.js';
import { MailResolver } from './mail.resolver.js';
import { mailRoutes } from './mail.routes.js';
// Writes the mails the domain's events cause, in their transaction (events/events.ts knows no consumer).
import './mail.consumer.js';

export { enqueueMail, enqueueMails, type MailRequest } from './mail.enqueue.js';
export { announceReleasedLessons, DEFAULT_DRIP_INTERVAL_MS, type DripMailer, type DripMailerOptions, startDripMailer } from './mail.drip.js';
export { loadMailTemplates } from './mail.render.js';
export { DEFAULT_MAIL_SCHEDULE_MS, type MailWorker, type MailWorkerOptions, startMailWorker } from './mail.worker.js';

/** Transactional e-mail: an outbox written in the changes' transactions, sent over SMTP by a worker in every instance. */
export const mailModule = defineModule({
  name: 'mail',
  resolvers: [MailResolver],
  routes: mailRoutes,
  rules: {
    operations: {
      // Mails carry people's addresses and set-password links: the platform and the school's admin only.
      people: {
        'Query.mails': MANAGERS,
        'Query.mail': MANAGERS,
        'Query.mailSettings': MANAGERS,
        'Mutation.updateMailSettings': MANAGERS,
        'Mutation.sendWelcomeMail': MANAGERS,
        // The signed token is the credential (RFC 8058 one-click: the mail provider POSTs with none).
        'Mutation.unsubscribeFromMails': PUBLIC,
        // Reading what a link names changes nothing; the page a browser gets asks to confirm (a POST).
        'Query.mailUnsubscribeLink': PUBLIC,
      },
    },
  },
  errors: { name: 'Mail', nodes: ['Mail', 'MailSettings', 'MailUnsubscription'], codes: [] },
  events: mailEventCatalog,
});
