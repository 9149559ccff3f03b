import { buildSchema, execute, type GraphQLResolveInfo, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { askedColumns, askedNodeColumns, markPlainFields } from '../../src/graphql/asked-columns.js';
import { lessons } from '../../src/modules/courses/course.table.js';
import { enrollments } from '../../src/modules/enrollments/enrollment.table.js';

// Which columns a list of lessons is read with, for each shape of its selection.
describe('askedColumns', () => {
  const asked = (query: string, needs?: Record<string, readonly string[]>): string[] | null => {
    let seen: string[] | null | undefined;
    const fresh = buildSchema(`
      type Lesson { id: ID! schoolId: ID! title: String! position: Int! description: String locked: Boolean! notAColumn: String }
      type Query { lessons: [Lesson!]! }
    `);
    (fresh.getType('Lesson') as any).getFields().locked.resolve = () => false;
    markPlainFields(fresh);
    (fresh.getQueryType() as any).getFields().lessons.resolve = (_: unknown, __: unknown, ___: unknown, info: GraphQLResolveInfo) => {
      seen = askedColumns(info, lessons, ['id', 'schoolId', 'courseModuleId'], needs);
      return [];
    };
    const result = execute({ schema: fresh, document: parse(query), variableValues: { yes: true } }) as { errors?: unknown };
    expect(result.errors).toBeUndefined();
    return seen!;
  };

  it('names the plain column fields asked for, with the keys, sorted', () => {
    expect(asked('{ lessons { title position } }')).toEqual(['courseModuleId', 'id', 'position', 'schoolId', 'title']);
    expect(asked('{ lessons { __typename id } }')).toEqual(['courseModuleId', 'id', 'schoolId']);
  });

  it('gives every column (null) for a field that computes, a field that is no column, a fragment or a directive', () => {
    expect(asked('{ lessons { title locked } }')).toBeNull();
    expect(asked('{ lessons { title notAColumn } }')).toBeNull();
    expect(asked('{ lessons { ... on Lesson { title } } }')).toBeNull();
    expect(asked('fragment F on Lesson { title } { lessons { ...F } }')).toBeNull();
    expect(asked('query ($yes: Boolean!) { lessons { title @include(if: $yes) } }')).toBeNull();
  });

  it('given the columns a computed field needs, then those in its stead; another computed field still reads every column', () => {
    expect(asked('{ lessons { title locked } }', { locked: ['available'] })).toEqual(['available', 'courseModuleId', 'id', 'schoolId', 'title']);
    expect(asked('{ lessons { locked notAColumn } }', { locked: ['available'] })).toBeNull();
  });

  it('reads the selections of every node a field is merged from', () => {
    expect(asked('{ lessons { title } lessons { description } }')).toEqual(['courseModuleId', 'description', 'id', 'schoolId', 'title']);
    expect(asked('{ lessons { title } lessons { locked } }')).toBeNull();
  });
});

// Which columns a connection's rows (enrollments) are read with, for each shape of its selection.
describe('askedNodeColumns', () => {
  const asked = (query: string): string[] | null => {
    let seen: string[] | null | undefined;
    const fresh = buildSchema(`
      type Student { id: ID! fullName: String! }
      type Enrollment { id: ID! schoolId: ID! status: String! createdAt: String! code: String student: Student notAColumn: String courses: [String!]! }
      type EnrollmentEdge { cursor: String! node: Enrollment! }
      type PageInfo { hasNextPage: Boolean! }
      type EnrollmentConnection { nodes: [Enrollment!]! edges: [EnrollmentEdge!]! pageInfo: PageInfo! totalCount: Int! }
      type Query { enrollments: EnrollmentConnection! }
    `);
    const fields = (fresh.getType('Enrollment') as any).getFields();
    for (const computed of ['status', 'student', 'courses']) fields[computed].resolve = () => null;
    markPlainFields(fresh);
    (fresh.getQueryType() as any).getFields().enrollments.resolve = (_: unknown, __: unknown, ___: unknown, info: GraphQLResolveInfo) => {
      seen = askedNodeColumns(info, enrollments, ['id', 'schoolId'], { status: ['status', 'unlimited', 'availableUntil'], student: ['studentId'] });
      return null;
    };
    execute({ schema: fresh, document: parse(query), variableValues: { yes: true } });
    return seen!;
  };

  it("names the plain column fields of nodes and edges' nodes, the columns a computed field needs, and the keys, sorted", () => {
    expect(asked('{ enrollments { nodes { id createdAt } } }')).toEqual(['createdAt', 'id', 'schoolId']);
    expect(asked('{ enrollments { nodes { status student { id fullName } } } }')).toEqual(['availableUntil', 'id', 'schoolId', 'status', 'studentId', 'unlimited']);
    expect(asked('{ enrollments { __typename totalCount pageInfo { hasNextPage } edges { cursor node { code } } } }')).toEqual(['code', 'id', 'schoolId']);
    expect(asked('{ enrollments { totalCount } }')).toEqual(['id', 'schoolId']);
  });

  it('gives every column (null) for a computed field without needs, a field that is no column, a fragment or a directive', () => {
    expect(asked('{ enrollments { nodes { id courses } } }')).toBeNull();
    expect(asked('{ enrollments { nodes { id notAColumn } } }')).toBeNull();
    expect(asked('{ enrollments { nodes { ... on Enrollment { id } } } }')).toBeNull();
    expect(asked('{ enrollments { edges { ... on EnrollmentEdge { node { id } } } } }')).toBeNull();
    expect(asked('fragment F on EnrollmentConnection { nodes { id } } { enrollments { ...F } }')).toBeNull();
    expect(asked('query ($yes: Boolean!) { enrollments { nodes { id @include(if: $yes) } } }')).toBeNull();
    expect(asked('{ enrollments { nodes { id } } enrollments { nodes { courses } } }')).toBeNull();
  });
});
