import { defineModule } from '../define-module.js';
import { privacyRules } from './privacy.access.js';
import { privacyEventCatalog } from './privacy.events.js';
import { PrivacyResolver } from './privacy.resolver.js';
import { privacyRoutes } from './privacy.routes.js';

/** A person's own data (LGPD / GDPR): its export and its erasure, table by table as src/db/personal-data.ts says. */
export const privacyModule = defineModule({
  name: 'privacy',
  resolvers: [PrivacyResolver],
  routes: privacyRoutes,
  rules: privacyRules,
  errors: { name: 'Privacy', nodes: ['PersonErasure'], payloads: ['ErasePersonPayload'], codes: [] },
  events: privacyEventCatalog,
});
