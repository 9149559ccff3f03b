import { sql, type SQL } from 'drizzle-orm';
import { subscribeToOutbox } from '../events/events.js';
import { integrations } from '../integrations/integration.table.js';
import { webhookDeliveries } from './webhook.table.js';

/**
 * The insert of a pending delivery for every active integration of an event's school whose
 * metadata names the event and whose configuration has a `url` (its masked view holds the keys),
 * reading the events just written from the CTE `inserted` (id, school_id, name). It subscribes to
 * the outbox (events/events.ts' subscribeToOutbox) and so runs in the events' own statement: a
 * change rolled back delivers nothing.
 */
export function webhookFanOut(): SQL {
  const d = webhookDeliveries;
  const i = integrations;
  return sql`insert into ${d} (${sql.identifier('school_id')}, ${sql.identifier('integration_id')}, ${sql.identifier('event_id')}, ${sql.identifier('event_name')})
    select inserted.school_id, ${i.id}, inserted.id, inserted.name
    from inserted join ${i} on ${i.schoolId} = inserted.school_id
    where ${i.active} and ${i.metadata} -> 'events' @> jsonb_build_array(inserted.name)
      and (${i.metaconfigPublic} -> 'url') is not null
    on conflict do nothing`;
}

subscribeToOutbox({ name: 'deliveries', statement: webhookFanOut });
