import 'reflect-metadata';
import { Field, ObjectType } from 'type-graphql';
import { Payload } from '../../graphql/mutation.js';
import { connectionType } from '../../graphql/pagination.js';
import { Timestamped } from '../../graphql/record.js';
import { NamedContent } from '../content/content.type.js';

@Timestamped()
@ObjectType({ description: 'A learning path: an ordered list of courses of the school.' })
export class Path extends NamedContent {
  @Field(() => String, { nullable: true, description: 'A custom identifier, unique within the school.' }) code!: string | null;
}

export const PathConnection = connectionType(Path);

export const PathPayload = Payload(Path, 'path');
