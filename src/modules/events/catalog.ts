import { registerEnumType } from 'type-graphql';
import { z } from 'zod';

/**
 * The catalog of the events the service emits: for each event, its name, version, subject, the
 * operations that emit it and its payload. Each module declares its own events in its
 * `<thing>.events.ts` with `event(...)`, adds them to `EventCatalog` there (declaration merging, so
 * `emitEvent` takes `z.infer` of each payload: a payload that does not fit is a compile error) and
 * lists them in its declaration (`events` in defineModule); the service installs the modules'
 * events at start-up, in module order. The JSON Schema shown to users (README, GraphQL `EventName`
 * descriptions, webhook documentation) is `z.toJSONSchema` of each payload.
 *
 * A payload only ever gains optional fields within a version; anything else is a new version.
 */
export const id = z.number().int();
export const nullableId = id.nullable();
export const isoTime = z.string().describe('RFC 3339 time');
export const changed = z.array(z.string()).describe('the input fields the write gave');

export interface EventDefinition<S extends string = string, P extends z.ZodObject = z.ZodObject> {
  version: number;
  subject: S;
  /** The GraphQL operations (root fields) that emit it, or the process that does. */
  emittedBy: readonly string[];
  description: string;
  payload: P;
  /**
   * The payload field naming the one user the event is addressed to, when there is one: its
   * NOTIFY carries it (event-bus.ts), so a subscriber listening for someone else skips the event
   * without reading anything.
   */
  recipient?: keyof z.infer<P> & string;
}
export const event = <const S extends string, P extends z.ZodObject>(d: EventDefinition<S, P>) => d;
/** A module's events, by name. */
export type EventDefinitions = Readonly<Record<string, EventDefinition>>;

/**
 * Every event of the service by name, as the compiler knows it: each module's `<thing>.events.ts`
 * extends it (`declare module '../events/catalog.js' { interface EventCatalog extends ... }`).
 */
export interface EventCatalog {}

export type EventName = keyof EventCatalog & string;
export type EventPayload<N extends EventName> = z.infer<EventCatalog[N]['payload']>;
export type EventSubject<N extends EventName> = EventCatalog[N]['subject'];

/** One event to emit: its payload and subject typed by the catalog entry its name picks. */
export type DomainEvent = {
  [N in EventName]: { schoolId: number; name: N; subjectType: EventSubject<N>; subjectId: number | null; payload: EventPayload<N> };
}[EventName];

const definitions: Record<string, EventDefinition> = {};
const names: EventName[] = [];
let installed: readonly [string, EventDefinition][] | null = null;

/** Reads of the catalog before the service installed it would see no event: they fail instead. */
function installedOnly<T extends object>(target: T): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      if (!installed) throw new Error('The event catalog is read before the service installed its modules (src/service-modules.ts)');
      return Reflect.get(t, key, receiver);
    },
  });
}

/** The installed catalog: each event's definition by name, in module order. */
export const eventCatalog = installedOnly(definitions) as { readonly [N in EventName]: EventCatalog[N] & EventDefinition };
/** Every event name, in module order (the README's table, the GraphQL enum, the integration settings' check). */
export const EVENT_NAMES: readonly EventName[] = installedOnly(names);

/** The GraphQL enum of the catalog's events (`ENROLLMENT_CREATED` stands for `enrollment.created`), filled when the catalog is installed. */
export const EventNameEnum: Record<string, EventName> = {};

/** The GraphQL enum value of an event name: `enrollment.created` → `ENROLLMENT_CREATED`. */
export const enumKeyOf = (name: EventName) => name.replace(/\./g, '_').toUpperCase();

/**
 * Installs the modules' events, in order, with the GraphQL `EventName` enum: once a process (the
 * enum is a GraphQL type). Installing the same events again is nothing; other events stop start-up.
 */
export function installEventCatalog(catalogs: readonly EventDefinitions[]): void {
  const entries = catalogs.flatMap((catalog) => Object.entries(catalog));
  if (installed) {
    const same = installed.length === entries.length && installed.every(([name, d], i) => entries[i][0] === name && entries[i][1] === d);
    if (same) return;
    throw new Error('The event catalog is installed once a process: these modules declare other events than the service installed');
  }
  for (const [name, definition] of entries) {
    if (Object.hasOwn(definitions, name)) throw new Error(`Two modules declare the event ${name}`);
    if (!/^[a-z_]+\.[a-z_]+$/.test(name)) throw new Error(`The event name ${name} is not <subject>.<what> in lower case`);
    definitions[name] = definition;
    names.push(name as EventName);
  }
  installed = entries;
  for (const name of names) EventNameEnum[enumKeyOf(name)] = name;
  registerEnumType(EventNameEnum, {
    name: 'EventName',
    description: 'The events the service emits (the catalog: README "Events"). Each value stands for the dotted name webhooks and metadata use.',
    valuesConfig: Object.fromEntries(
      names.map((n) => [enumKeyOf(n), { description: `\`${n}\` (v${definitions[n].version}, ${definitions[n].subject}): ${definitions[n].description}` }]),
    ),
  });
}

/** The payload field naming the user an event is addressed to (the catalog's `recipient`), or undefined. */
export const recipientField = (name: EventName): string | undefined => eventCatalog[name].recipient;

export const isEventName = (name: string): name is EventName => installed !== null && Object.hasOwn(definitions, name);

/** The payload's JSON Schema, as users see it. */
export function payloadJsonSchema(name: EventName): Record<string, unknown> {
  return z.toJSONSchema(eventCatalog[name].payload) as Record<string, unknown>;
}

/** Checks a payload against its schema (tests, and a reader's sanity check). */
export function parsePayload(name: EventName, payload: unknown) {
  return eventCatalog[name].payload.safeParse(payload);
}
