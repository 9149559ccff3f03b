import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';

/*
 * The fields most object types share, written once. type-graphql lists a base class's fields
 * before the class's own, and REST replies and schema/openapi.json follow that order: so a base
 * holds only the leading `id` and `schoolId`, and `@Timestamped()` appends `createdAt` and
 * `updatedAt` after the class's own fields (a class decorator runs after its property decorators).
 * The bases are never emitted: type-graphql 2 writes only the types that the resolvers reach.
 */

/** A row of a school: `id`, then `schoolId`, before the class's own fields. */
@ObjectType()
export abstract class SchoolOwned {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
}

export interface Timestamps {
  createdAt: Date;
  updatedAt: Date;
}

/** A row of a school with its timestamps: the class takes `@Timestamped()`, which gives the two fields. */
@ObjectType()
export abstract class SchoolRecord extends SchoolOwned implements Timestamps {
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** Appends the fields `createdAt` and `updatedAt` (DateTime, non-null), after the class's own fields. */
export function Timestamped() {
  return (target: abstract new (...args: never[]) => Timestamps): void => {
    Field(() => Date)(target.prototype, 'createdAt');
    Field(() => Date)(target.prototype, 'updatedAt');
  };
}
