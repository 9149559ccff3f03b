import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({
  description:
    'Create and update take the same fields; resourceId, mediaId, order, downloadable and available are required on create and may not be cleared.',
})
@RequiredFields('resourceId', 'mediaId', 'order', 'downloadable', 'available')
export class ExtraContentInput {
  @Field(() => String, {
    nullable: true,
    description: 'Lesson (the default), Course or SchoolProduct (school_product, lesson and the like are read too).',
  })
  resourceType?: string | null;
  @Field(() => ID, { nullable: true, description: 'A lesson, course or school product (by resourceType) of the school.' }) resourceId?: string | null;
  @Field(() => ID, { nullable: true, description: 'A media of the school.' }) mediaId?: string | null;
  @Field(() => Int, { nullable: true, description: '0 or more.' }) order?: number | null;
  @Field(() => Boolean, { nullable: true }) downloadable?: boolean | null;
  @Field(() => Boolean, { nullable: true }) available?: boolean | null;
  @Field(() => String, { nullable: true }) title?: string | null;
}

@ArgsType()
export class ExtraContentsArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Lesson, Course or SchoolProduct (any spelling).' }) resourceType?: string | null;
  @Field(() => ID, { nullable: true }) resourceId?: string | null;
  @Field(() => ID, { nullable: true }) mediaId?: string | null;
}
