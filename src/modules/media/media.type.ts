import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { mediaProcessingStatus, mediaType } from './media.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

export const MediaTypeEnum = graphqlEnum(
  'MediaType',
  mediaType.enumValues,
  'Media: any other media (a plain video, audio, document); VideoSlide: a video with synced slides; ScormPackage: a SCORM package.',
);
export const MediaProcessingStatusEnum = graphqlEnum(
  'MediaProcessingStatus',
  mediaProcessingStatus.enumValues,
  'ready: processed (or needing none); queued: waiting for (re)processing; processing; failed.',
);

@Timestamped()
@ObjectType({ description: 'A piece of media of a school: video with slides, SCORM package or other.' })
export class Media extends SchoolRecord {
  @Field(() => String) title!: string;
  @Field(() => MediaTypeEnum) type!: string;
  @Field(() => String, { nullable: true, description: 'Key of the media at its host.' }) hostKey!: string | null;
  @Field(() => ID, { nullable: true }) libraryResourceId!: number | null;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => ID, { nullable: true, description: 'The video of a VideoSlide (an Image).' }) videoId!: number | null;
  @Field(() => MediaProcessingStatusEnum) processingStatus!: string;
  @Field(() => Date, { nullable: true, description: 'When (re)processing was last asked for.' }) processingRequestedAt!: Date | null;
  @Field(() => Date, { nullable: true }) processedAt!: Date | null;
}

@ObjectType({ description: 'A slide of a VideoSlide: the image shown from syncAt seconds into the video.' })
export class VideoSlideSync {
  @Field(() => ID) id!: number;
  @Field(() => ID) imageId!: number;
  @Field(() => Int, { description: 'Seconds into the video.' }) syncAt!: number;
}

@ObjectType({ description: 'A slide as the public view shows it.' })
export class PublicSlide {
  @Field(() => Int) syncAt!: number;
  @Field(() => String) imageUrl!: string;
}

@ObjectType({
  description: 'What may be published of a media, read without a credential: no host keys, no storage or library references.',
})
export class PublicMedia {
  @Field(() => ID) id!: number;
  @Field(() => String) title!: string;
  @Field(() => MediaTypeEnum) type!: string;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType({ description: 'A SCORM launch: open `uri` to start the package; it is valid until expiresAt.' })
export class ScormLaunch {
  @Field(() => String, { description: 'The launch URI, carrying a signed token for this media (and enrollment).' }) uri!: string;
  @Field(() => Date) expiresAt!: Date;
  @Field(() => ID) mediaId!: number;
  @Field(() => ID, { nullable: true, description: 'Null for a preview.' }) enrollmentId!: number | null;
  @Field(() => String, { description: 'Where the player sends the learner when the package exits.' }) redirectUri!: string;
}

@ObjectType({ description: 'What a valid launch token opens: the package to play and where to go on exit.' })
export class ScormSession {
  @Field(() => ID) mediaId!: number;
  @Field(() => ID, { nullable: true, description: 'Null for a preview.' }) enrollmentId!: number | null;
  @Field(() => Boolean) preview!: boolean;
  @Field(() => String) title!: string;
  @Field(() => String, { description: 'The package file to play.' }) packageUrl!: string;
  @Field(() => String) redirectUri!: string;
  @Field(() => Date) expiresAt!: Date;
}

export const MediaConnection = connectionType(Media);
