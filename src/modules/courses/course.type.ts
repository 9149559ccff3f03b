import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';
import { NamedContent } from '../content/content.type.js';

@Timestamped()
@ObjectType({ description: 'A course of a school: an ordered list of course modules, each an ordered list of lessons.' })
export class Course extends NamedContent {
  @Field(() => Int, { nullable: true, description: 'Length of the course (whole units, 0 or more).' }) duration!: number | null;
  @Field(() => String, { nullable: true, description: 'A custom identifier, unique within the school.' }) code!: string | null;
  @Field(() => Boolean) ready!: boolean;
}

@Timestamped()
@ObjectType({
  description:
    'A module of courses: a titled group of lessons. A module may be shared by several courses of the school; each course orders its modules.',
})
export class CourseModule extends SchoolRecord {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
}

@Timestamped()
@ObjectType({
  description:
    'A lesson of a course module. A lesson without a module is a draft: it is outside every school product and enrollment.',
})
export class Lesson extends SchoolRecord {
  @Field(() => ID, { nullable: true, description: 'The module holding the lesson; null for a draft.' }) courseModuleId!: number | null;
  @Field(() => Int, { description: 'Order within the module (ascending, then id).' }) position!: number;
  @Field(() => String) title!: string;
  @Field(() => String) type!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Boolean, { description: 'An unavailable lesson is never shown to students.' }) available!: boolean;
  @Field(() => ID, { nullable: true }) mediaId!: number | null;
  @Field(() => Int, { nullable: true }) minGrade!: number | null;
  @Field(() => Boolean) unlockCertificate!: boolean;
  @Field(() => Date, { nullable: true, description: 'Students see the lesson from this moment.' }) releaseAt!: Date | null;
  @Field(() => Int, { nullable: true, description: "Students see the lesson this many days after their enrollment's activation." })
  releaseAfter!: number | null;
}

export const CourseConnection = connectionType(Course);
export const CourseModuleConnection = connectionType(CourseModule);
export const LessonConnection = connectionType(Lesson);
