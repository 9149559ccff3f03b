import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { mediaProcessingStatus, mediaType } from './media.table.js';

export const MediaTypeEnum = graphqlEnum('MediaType', mediaType.enumValues, 'Media: any other media; VideoSlide: a video with synced slides; ScormPackage: a SCORM package.');
export const MediaProcessingStatusEnum = graphqlEnum('MediaProcessingStatus', mediaProcessingStatus.enumValues);

@ObjectType({ description: 'A piece of media of a school: video with slides, SCORM package or other.' })
export class Media {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) title!: string;
  @Field(() => MediaTypeEnum) type!: string;
  @Field(() => String, { nullable: true }) hostKey!: string | null;
  @Field(() => ID, { nullable: true }) libraryResourceId!: number | null;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => ID, { nullable: true }) videoId!: number | null;
  @Field(() => String, { nullable: true }) storageFileUrl!: string | null;
  @Field(() => MediaProcessingStatusEnum) processingStatus!: string;
  @Field(() => Date, { nullable: true }) processingRequestedAt!: Date | null;
  @Field(() => Date, { nullable: true }) processedAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}
