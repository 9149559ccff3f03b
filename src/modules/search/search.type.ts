import 'reflect-metadata';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { PageInfo } from '../../graphql/pagination.js';
import { SEARCH_TYPES, type SearchTypeName } from '../../content/search.js';

export { SEARCH_TYPES, type SearchTypeName };
export const SearchType = graphqlEnum(
  'SearchType',
  SEARCH_TYPES,
  "What search looks through: students (full name, e-mail), courses (name, description), lessons (title, description), forum_questions (title, description).",
);

@ObjectType({ description: 'One row search found: its kind and id (read it with its own query), what it is called, and how well it matched.' })
export class SearchHit {
  @Field(() => SearchType, { description: 'Which kind of row: the id is one of that kind.' }) type!: SearchTypeName;
  @Field(() => ID) id!: number;
  @Field(() => String, { description: "The row's title: a student's full name, a course's name, a lesson's or a question's title." }) title!: string;
  @Field(() => String, {
    nullable: true,
    description: "The row's other searched text: a student's e-mail, else the description, cut to about 200 characters around the first match.",
  })
  excerpt!: string | null;
  @Field(() => Float, {
    description:
      'How well it matched, hits ranked by it: 2 when every word is in the title (name), 1 when every word is in the body (e-mail, description), both add up; +1 when the title is the text itself, +0.5 when it starts with it.',
  })
  score!: number;
}

@ObjectType({ description: 'A search hit and its cursor.' })
export class SearchHitEdge {
  @Field(() => String) cursor!: string;
  @Field(() => SearchHit) node!: SearchHit;
}

/** A page of hits, best first. A cursor is a position in the ranking (hits are not in id order). */
@ObjectType({ description: 'Search hits, best first: a connection like every list; a cursor is a position in the ranking.' })
export class SearchHitConnection {
  @Field(() => [SearchHit]) nodes!: SearchHit[];
  @Field(() => [SearchHitEdge]) edges!: SearchHitEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
  @Field(() => Int, { description: 'Every hit, over all pages.' }) totalCount!: number;
}
