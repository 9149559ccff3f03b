import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: "The state of a person's erasure (erasePerson): it happens once; a second request answers the first one's record." })
export class PersonErasure {
  @Field(() => ID) userId!: number;
  @Field(() => Date) erasedAt!: Date;
  @Field(() => Boolean, { description: 'True when the person had been erased already: nothing was changed.' }) alreadyErased!: boolean;
  @Field(() => Int, { description: 'How many live credentials of the person this erasure revoked.' }) revokedTokens!: number;
}
