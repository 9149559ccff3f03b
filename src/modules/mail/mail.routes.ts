import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';
import { confirmUnsubscribePage, doneUnsubscribePage } from './mail.page.js';

export const mailRoutes: Route[] = [
  // `?kind=invitation&status=kept&user_id=3&recipient=a@b.c` filter.
  rows.list('/mails', 'mails', { args: { kind: param('kind'), status: param('status'), userId: param('user_id'), recipient: param('recipient') } }),
  // RFC 8058 one-click: the mail's List-Unsubscribe URL, POSTed with `List-Unsubscribe=One-Click`, no credential.
  // A browser (Accept: text/html) gets pages: GET asks to confirm (a link opened changes nothing), its form POSTs here.
  { method: 'POST', path: '/mails/unsubscribe', field: 'unsubscribeFromMails', args: { token: param('token') }, reply: 'action', public: true, page: doneUnsubscribePage },
  { method: 'GET', path: '/mails/unsubscribe', field: 'mailUnsubscribeLink', args: { token: param('token') }, reply: 'show', public: true, page: confirmUnsubscribePage },
  rows.show('/mails/:id', 'mail'),
  { method: 'GET', path: '/mail_settings', field: 'mailSettings', reply: 'show' },
  { method: ['PUT', 'PATCH'], path: '/mail_settings', field: 'updateMailSettings', args: { input: resource('mail_settings') }, reply: 'action' },
  { method: 'POST', path: '/users/:user_id/welcome_mail', field: 'sendWelcomeMail', args: { userId: pathParam('user_id') }, reply: 'action' },
];
