import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

/** A class (a run) of a course, which enrollments join (enrollments link to it by id). */
@Timestamped()
@ObjectType({ description: 'A class of a course: a group of students taking the course together.' })
export class CourseClass extends SchoolRecord {
  @Field(() => ID) courseId!: number;
  @Field(() => String, { nullable: true, description: 'Unique within the school; look-ups by code use it.' }) code!: string | null;
  @Field(() => Date, { nullable: true }) startAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'After startAt when both are set.' }) endAt!: Date | null;
  @Field(() => Boolean, { description: 'The main class of its course (at most one per course).' }) main!: boolean;
}

export const CourseClassConnection = connectionType(CourseClass);
