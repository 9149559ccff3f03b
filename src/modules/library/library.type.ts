import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: "A school's content library: resources, images and host credentials." })
export class Library extends SchoolRecord {
  @Field(() => String) name!: string;
}

@Timestamped()
@ObjectType({ description: 'An item of a library; media and published school products point at one.' })
export class LibraryResource extends SchoolRecord {
  @Field(() => ID) libraryId!: number;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true, description: 'Free text: video, document, scorm, link...' }) kind!: string | null;
  @Field(() => String, { nullable: true, description: 'An http(s) address of the resource, when it has one.' }) url!: string | null;
}

@Timestamped()
@ObjectType({ description: 'An image of a school (product covers, galleries).' })
export class Image extends SchoolRecord {
  @Field(() => String, { description: 'An http(s) address.' }) url!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true, description: 'The MIME type, e.g. image/png.' }) contentType!: string | null;
  @Field(() => Int, { nullable: true, description: 'In pixels, positive.' }) width!: number | null;
  @Field(() => Int, { nullable: true, description: 'In pixels, positive.' }) height!: number | null;
}

export const LibraryConnection = connectionType(Library);
export const LibraryResourceConnection = connectionType(LibraryResource);
export const ImageConnection = connectionType(Image);
