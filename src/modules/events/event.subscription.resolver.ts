import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Resolver, Root, Subscription } from 'type-graphql';
import { inSchool } from '../../auth/tenancy.js';
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
        async (c, s) => {
          const [row] = await c.db.select().from(domainEvents).where(and(eq(domainEvents.id, s.id), inSchool(c, domainEvents.schoolId)));
          return row;
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
