import 'reflect-metadata';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, PageInfo } from '../../graphql/pagination.js';
import { eventCatalog, EventNameEnum, type EventName } from './catalog.js';
import type { DomainEventRow } from './domain-event.table.js';
import { SchoolOwned } from '../../graphql/record.js';

/** The GraphQL enum of the catalog's events: `ENROLLMENT_CREATED` stands for `enrollment.created` (made when the service installs the catalog). */
export { EventNameEnum };

/** The opaque cursor of an event: its place in the feed's (txid, id) order. */
export const encodeEventCursor = (e: { txid: number; id: number }) => Buffer.from(`ev:${e.txid}:${e.id}`).toString('base64url');

@ObjectType({ description: 'An event of the outbox: something that changed in the school, in the transaction that changed it.' })
export class Event extends SchoolOwned {
  @Field(() => EventNameEnum) name!: EventName;
  @Field(() => String, { description: 'The dotted name (enrollment.created), as webhooks send it and integration metadata names it.' })
  type(this: DomainEventRow): string {
    return this.name;
  }
  @Field(() => Int, { description: "The version of the payload's shape." })
  version(this: DomainEventRow): number {
    return eventCatalog[this.name as EventName]?.version ?? 1;
  }
  @Field(() => String, { description: 'The type of the object it is about (Enrollment, Order, ...).' }) subjectType!: string;
  @Field(() => ID, { nullable: true }) subjectId!: number | null;
  @Field(() => GraphQLJSONObject, { description: "The payload, in the shape the catalog gives for the event's name and version." })
  payload!: Record<string, unknown>;
  @Field(() => Date) createdAt!: Date;
  @Field(() => String, { description: 'Where the feed stands after this event: pass it as `after` to read what follows.' })
  cursor(this: DomainEventRow): string {
    return encodeEventCursor(this);
  }
}

@ObjectType()
export class EventEdge {
  @Field(() => String) cursor!: string;
  @Field(() => Event) node!: DomainEventRow;
}

/** A page of the feed. `endCursor` is where to go on from; an empty page keeps the cursor it was given. */
@ObjectType()
export class EventConnection {
  @Field(() => [Event]) nodes!: DomainEventRow[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
  count!: () => Promise<number>;

  @Field(() => [EventEdge])
  edges(): EventEdge[] {
    return this.nodes.map((node) => ({ cursor: encodeEventCursor(node), node }));
  }

  @Field(() => Int, { description: 'How many events the reader may read now after the cursor (with the name filter).' })
  totalCount(): Promise<number> {
    return this.count();
  }
}

@ArgsType()
export class EventsArgs extends ConnectionArgs {
  @Field(() => [EventNameEnum], { nullable: true, description: 'Only these events (absent: every event).' })
  names?: EventName[] | null;
}
