import type { Queryable } from '../../db/client.js';
import { given } from '../../graphql/ids.js';
import { existingId } from '../../graphql/references.js';
import { Checks, isBlank } from '../../graphql/validation.js';
import { lessons } from '../courses/course.table.js';
import type { ActivityInput, ExamQuestionInput, ExamQuestionOptionInput } from './activity.input.js';
import type { activities, ActivityRow } from './activity.table.js';
import { ACTIVITY_TYPES } from './activity.type.js';

/** A question as it will be written: its values and its options (with their assertions). */
export interface PlannedQuestion {
  title: string;
  type: 'multiple_choice' | 'associative' | 'essay';
  comment: string | null;
  point: number | null;
  position: number;
  options: PlannedOption[];
}
export interface PlannedOption {
  title: string | null;
  correct: boolean;
  position: number;
  /** Associative options only: the first and the second assertion's text. */
  assertions: { first: string; second: string } | null;
}

/**
 * Checks an activity as it will be after the change (`current` + `input`) and its question tree.
 * Errors carry the nested path (`examQuestionsAttributes.1.optionsAttributes.0.title`, in REST
 * `exam_questions_attributes[1].options_attributes[0].title`). One statement: the lesson check.
 */
export async function checkActivity(tx: Queryable, schoolId: number, input: ActivityInput, current?: ActivityRow) {
  const checks = new Checks();
  const fields = ['title', 'type', 'showComments', 'examLessonId'] as const;
  for (const field of fields) current ? checks.notCleared(field, input[field]) : checks.required(field, input[field]);
  const type = typeof input.type === 'string' ? input.type.trim().toLowerCase() : input.type;
  if (!isBlank(type) && !(ACTIVITY_TYPES as readonly string[]).includes(type!))
    checks.add('type', 'inclusion', `is not included in the list (${ACTIVITY_TYPES.join(', ')})`);
  checks.range('timeLimit', input.timeLimit, 1).range('retryTime', input.retryTime, 0).range('maxAttempts', input.maxAttempts, 1);
  const lessonId = isBlank(input.examLessonId) ? null : await existingId(tx, checks, 'examLessonId', lessons, input.examLessonId, schoolId);
  const questions = input.examQuestionsAttributes === undefined ? null : planQuestions(checks, input.examQuestionsAttributes ?? []);
  checks.throwIfAny();

  const { examQuestionsAttributes: _q, examLessonId: _l, ...columns } = given(input);
  const values = { ...columns } as Partial<typeof activities.$inferInsert>;
  if (typeof values.title === 'string') values.title = values.title.trim();
  if (type) values.type = type;
  if (lessonId !== null) values.examLessonId = lessonId;
  return { values, questions };
}

function planQuestions(root: Checks, inputs: ExamQuestionInput[]): PlannedQuestion[] {
  return inputs.map((input, i) => {
    const checks = root.nested('examQuestionsAttributes', i);
    const type = input.type ?? 'multiple_choice';
    checks.required('title', input.title).range('point', input.point, 0);
    const options = (input.optionsAttributes ?? []).map((option, j) => planOption(checks.nested('optionsAttributes', j), type, option, j));
    if (type === 'essay' && options.length > 0) checks.add('optionsAttributes', 'present', 'must be blank for an essay question');
    if (type !== 'essay' && options.length === 0) checks.add('optionsAttributes', 'blank', `can't be blank for a ${type} question`);
    if (type === 'multiple_choice' && options.length > 0 && !options.some((o) => o.correct))
      checks.add('optionsAttributes', 'invalid', 'must include at least one correct option');
    return {
      title: input.title?.trim() ?? '',
      type,
      comment: input.comment ?? null,
      point: input.point ?? null,
      position: input.position ?? i,
      options,
    };
  });
}

function planOption(checks: Checks, type: PlannedQuestion['type'], input: ExamQuestionOptionInput, index: number): PlannedOption {
  const assertion = (field: 'firstAssertionAttributes' | 'secondAssertionAttributes') => {
    const given = input[field];
    if (type !== 'associative') {
      if (given) checks.add(field, 'present', 'must be blank unless the question is associative');
      return '';
    }
    if (!given) checks.add(field, 'blank');
    else checks.nested(field).required('text', given.text);
    return given?.text?.trim() ?? '';
  };
  if (type === 'multiple_choice') checks.required('title', input.title);
  const first = assertion('firstAssertionAttributes');
  const second = assertion('secondAssertionAttributes');
  return {
    title: input.title?.trim() || null,
    correct: input.correct ?? false,
    position: input.position ?? index,
    assertions: type === 'associative' ? { first, second } : null,
  };
}
