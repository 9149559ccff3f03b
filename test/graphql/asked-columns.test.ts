import { buildSchema, execute, type GraphQLResolveInfo, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { askedColumns, markPlainFields } from '../../src/graphql/asked-columns.js';
import { lessons } from '../../src/modules/courses/course.table.js';

// Which columns a list of lessons is read with, for each shape of its selection.
describe('askedColumns', () => {
  const asked = (query: string): string[] | null => {
    let seen: string[] | null | undefined;
    const fresh = buildSchema(`
      type Lesson { id: ID! schoolId: ID! title: String! position: Int! description: String locked: Boolean! notAColumn: String }
      type Query { lessons: [Lesson!]! }
    `);
    (fresh.getType('Lesson') as any).getFields().locked.resolve = () => false;
    markPlainFields(fresh);
    (fresh.getQueryType() as any).getFields().lessons.resolve = (_: unknown, __: unknown, ___: unknown, info: GraphQLResolveInfo) => {
      seen = askedColumns(info, lessons, ['id', 'schoolId', 'courseModuleId']);
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

  it('reads the selections of every node a field is merged from', () => {
    expect(asked('{ lessons { title } lessons { description } }')).toEqual(['courseModuleId', 'description', 'id', 'schoolId', 'title']);
    expect(asked('{ lessons { title } lessons { locked } }')).toBeNull();
  });
});
