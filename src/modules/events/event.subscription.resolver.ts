import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Resolver, Root, Subscription } from 'type-graphql';
import { inSchoolScope } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { subscribeTo } from '../../graphql/subscriptions.js';
import type { EventName } from './catalog.js';
import { type DomainEventRow, domainEvents } from './domain-event.table.js';
import { Event, EventNameEnum } from './event.type.js';

@Resolver(() => Event)
export class EventSubscriptionResolver {
  @Subscription(() => Event, {
    name: 'events',
    description:
      "The school's events as their transactions commit (a rolled-back change sends none), over WebSocket (graphql-ws) at " +
      '/graphql; the same readers as the events feed. To catch up after a disconnection, read the feed (Query.events) from the last cursor.',
    subscribe: ({ args, context }) => {
      const names = (args.names as EventName[] | null | undefined) ?? null;
      return subscribeTo<DomainEventRow>(
        context as Context,
        (s) => names === null || (names as string[]).includes(s.name),
        // The event's row is read once on this instance for all its subscribers, of the event's school.
        async (c, s, shared) => {
          const row = await shared.once('event', async () => {
            const [found] = await c.db.select().from(domainEvents).where(and(eq(domainEvents.id, s.id), eq(domainEvents.schoolId, s.schoolId)));
            return found ?? null;
          });
          return row && inSchoolScope(c, row.schoolId) ? row : null;
        },
      );
    },
  })
  eventsSubscription(
    @Root() event: DomainEventRow,
    @Arg('names', () => [EventNameEnum], { nullable: true, description: 'Only these events (absent: every event).' }) _names?: EventName[] | null,
  ): DomainEventRow {
    return event;
  }
}
