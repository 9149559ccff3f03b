import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: 'name is required on create and may not be cleared.' })
@RequiredFields('name')
export class LibraryInput {
  @Field(() => String, { nullable: true }) name?: string | null;
}

@InputType({ description: 'title is required on create and may not be cleared; url, when given, is an http(s) address.' })
@RequiredFields('title')
export class LibraryResourceInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) kind?: string | null;
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => ID, { nullable: true, description: 'On update, moves the resource to another library of the school (ignored on create).' })
  libraryId?: string | null;
}

@ArgsType()
export class LibraryResourcesArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Only the resources of this library of the school (404 when it is not one).' })
  libraryId?: string | null;
}

@InputType({ description: 'url is required on create (an http(s) address); width and height, when given, are positive.' })
@RequiredFields('url')
export class ImageInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) contentType?: string | null;
  @Field(() => Int, { nullable: true }) width?: number | null;
  @Field(() => Int, { nullable: true }) height?: number | null;
}

@InputType({ description: 'name is required on create; slug is unique in the school; parentId is another category of the school.' })
@RequiredFields('name')
export class CategoryInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) slug?: string | null;
  @Field(() => ID, { nullable: true, description: 'null makes it a top-level category.' }) parentId?: string | null;
}

@InputType({
  description:
    'Create and update take the same fields; host is required on create and may not be cleared. accessToken is write-only: ' +
    'on update a new value replaces the stored token, null or "" clears it, the accessTokenHint sent back unchanged keeps it.',
})
@RequiredFields('host')
export class HostCredentialInput {
  @Field(() => String, { nullable: true }) host?: string | null;
  @Field(() => String, { nullable: true }) accessToken?: string | null;
  @Field(() => String, { nullable: true, description: 'Project ids at the host.' }) pids?: string | null;
}
