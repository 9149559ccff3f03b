import 'reflect-metadata';
import { ArgsType, Field } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { SearchType, type SearchTypeName } from './search.type.js';

@ArgsType()
export class SearchArgs extends ConnectionArgs {
  @Field(() => String, {
    description:
      'What to find: 2 to 100 characters, accents and case ignored ("joao" finds "João"); each word must appear in the title or in the body. REST: `q`.',
  })
  text!: string;

  @Field(() => [SearchType], { nullable: true, description: 'The kinds to look through (default: every kind the credential may list). REST: `types=courses,lessons`.' })
  types?: SearchTypeName[] | null;
}
