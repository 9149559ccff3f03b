import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { MediaTypeEnum } from './media.type.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: 'A slide of a VideoSlide: both fields are required.' })
export class VideoSlideSyncInput {
  @Field(() => ID, { nullable: true, description: 'An Image of the school.' }) imageId?: string | null;
  @Field(() => Int, { nullable: true, description: 'Seconds into the video (0 or more), one slide per moment.' }) syncAt?: number | null;
}

/**
 * Create and update take the same fields (every field nullable: required ones are checked by the
 * resolver so a missing one is a UserError / 422).
 */
@InputType({
  description:
    'title, type, hostKey and libraryResourceId are required on create. A VideoSlide needs videoId and at least one slide; ' +
    'a ScormPackage needs storageFileUrl, which only create takes.',
})
@RequiredFields('title', 'type', 'hostKey', 'libraryResourceId')
export class MediaInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => MediaTypeEnum, { nullable: true }) type?: 'Media' | 'VideoSlide' | 'ScormPackage' | null;
  @Field(() => String, { nullable: true, description: 'Key of the media at its host.' }) hostKey?: string | null;
  @Field(() => ID, { nullable: true, description: 'A resource of a library of the school.' }) libraryResourceId?: string | null;
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => ID, { nullable: true, description: 'An Image of the school: the video of a VideoSlide (required for one).' }) videoId?: string | null;
  @Field(() => [VideoSlideSyncInput], {
    nullable: true,
    description: 'The slides of a VideoSlide (at least one), stored in syncAt order. On update, a given list replaces the slides.',
  })
  videoSlideSyncsAttributes?: VideoSlideSyncInput[] | null;
  @Field(() => String, {
    nullable: true,
    description: 'The file in object storage (http(s), s3 or gs URL); required for a ScormPackage. Create only: an update may repeat the stored value, not change it.',
  })
  storageFileUrl?: string | null;
}

@ArgsType()
export class MediaListArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "The media of a product's lessons and extra contents." }) schoolProductId?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "What an enrollment's student may see: the media of released lessons and available extra contents of the enrolled product.",
  })
  enrollmentId?: string | null;
  @Field(() => MediaTypeEnum, { nullable: true }) type?: 'Media' | 'VideoSlide' | 'ScormPackage' | null;
}
