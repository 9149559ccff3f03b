import { accessOf, CATALOGUE, type Rule, STAFF_AND_OWN, STAFF_READ } from '../../auth/role-matrix.js';
import type { Role } from '../../auth/credential.js';
import { AppError } from '../../graphql/errors.js';
import { SEARCH_TYPES, type SearchTypeName } from './search.type.js';

/** A search text's length in characters (code points), trimmed: shorter finds everything, longer is no search. */
export const SEARCH_TEXT = { min: 2, max: 100 } as const;
/** Words of a text searched for; the rest are ignored (each word is one more condition per searched column). */
export const MAX_SEARCH_WORDS = 8;

/**
 * Who finds each kind: the row of the list its rows come from (Query.students, Query.courses,
 * Query.lessons, Query.forumQuestions), restated here because a module reads no other's declaration
 * (test/search/graphql.search.test.ts checks they stay equal). `own` is a student's: lessons its
 * enrollments release (content/visible-lessons.ts).
 */
export const searchTypeRules: Readonly<Record<SearchTypeName, Rule>> = {
  students: STAFF_READ,
  courses: CATALOGUE,
  lessons: STAFF_AND_OWN,
  forum_questions: CATALOGUE,
};
export const searchedLists: Readonly<Record<SearchTypeName, string>> = {
  students: 'Query.students',
  courses: 'Query.courses',
  lessons: 'Query.lessons',
  forum_questions: 'Query.forumQuestions',
};

/** The kinds asked (default: all) that the role may list; a kind it may not list is left out, never an error. */
export function searchableTypes(role: Role | undefined, asked: readonly SearchTypeName[] | null | undefined): SearchTypeName[] {
  const wanted = asked?.length ? new Set(asked) : new Set(SEARCH_TYPES);
  return SEARCH_TYPES.filter((type) => wanted.has(type) && role !== undefined && accessOf(searchTypeRules[type], role) !== 'deny');
}

/** The text's words (whitespace-separated, repeated ones once, at most MAX_SEARCH_WORDS); 422 naming `text` when it is too short or too long. */
export function searchWords(text: string): { phrase: string; words: string[] } {
  const phrase = text.trim().replace(/\s+/g, ' ');
  const length = [...phrase].length;
  if (length < SEARCH_TEXT.min) throw new AppError('too_short', `Text is too short (minimum is ${SEARCH_TEXT.min} characters)`, ['text'], SEARCH_TEXT.min);
  if (length > SEARCH_TEXT.max) throw new AppError('too_long', `Text is too long (maximum is ${SEARCH_TEXT.max} characters)`, ['text'], SEARCH_TEXT.max);
  return { phrase, words: [...new Set(phrase.split(' '))].slice(0, MAX_SEARCH_WORDS) };
}
