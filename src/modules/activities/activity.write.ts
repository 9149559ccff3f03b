import { eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { UserErrors, userError } from '../../graphql/errors.js';
import type { PlannedQuestion } from './activity.rules.js';
import { examQuestionAnswers, examQuestions } from './activity.table.js';

/** Fresh ids from a table's identity sequence, so children can name their parents before either is written. */
async function nextIds(tx: Queryable, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await tx
    .select({ id: sql<number>`nextval(pg_get_serial_sequence(${table}, 'id'))::int` })
    .from(sql`generate_series(1, ${count}::int)`);
  return rows.map((r) => Number(r.id));
}

/**
 * Inserts any number of rows in one statement with one parameter (a JSON array), so neither the
 * statement count nor PostgreSQL's 65535-parameter limit grows with the rows. `columns` maps each
 * column (also the JSON key) to its SQL type; table and column names are constants of this file.
 */
async function insertRows(tx: Queryable, table: string, columns: Record<string, string>, rows: Record<string, unknown>[]) {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const list = sql.raw(names.map((n) => `"${n}"`).join(', '));
  const definitions = sql.raw(names.map((n) => `"${n}" ${columns[n]}`).join(', '));
  await tx.execute(
    sql`insert into ${sql.raw(`"${table}"`)} (${list}) select ${list} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${definitions})`,
  );
}

/**
 * Writes a checked question tree under an activity: at most five statements whatever its size
 * (two id allocations, one insert per table).
 */
export async function writeQuestions(tx: Queryable, schoolId: number, activityId: number, questions: PlannedQuestion[]): Promise<void> {
  if (questions.length === 0) return;
  const questionIds = await nextIds(tx, 'exam_questions', questions.length);
  const optionIds = await nextIds(tx, 'exam_question_options', questions.reduce((n, q) => n + q.options.length, 0));
  const questionRows: Record<string, unknown>[] = [];
  const optionRows: Record<string, unknown>[] = [];
  const assertionRows: Record<string, unknown>[] = [];
  let nextOption = 0;
  questions.forEach((q, i) => {
    const questionId = questionIds[i];
    questionRows.push({
      id: questionId,
      school_id: schoolId,
      activity_id: activityId,
      position: q.position,
      title: q.title,
      type: q.type,
      comment: q.comment,
      point: q.point,
    });
    for (const o of q.options) {
      const optionId = optionIds[nextOption++];
      optionRows.push({ id: optionId, school_id: schoolId, exam_question_id: questionId, position: o.position, title: o.title, correct: o.correct });
      if (o.assertions) {
        assertionRows.push({ school_id: schoolId, option_id: optionId, side: 'first', text: o.assertions.first });
        assertionRows.push({ school_id: schoolId, option_id: optionId, side: 'second', text: o.assertions.second });
      }
    }
  });
  await insertRows(
    tx,
    'exam_questions',
    { id: 'int', school_id: 'int', activity_id: 'int', position: 'int', title: 'text', type: 'exam_question_type', comment: 'text', point: 'int' },
    questionRows,
  );
  await insertRows(
    tx,
    'exam_question_options',
    { id: 'int', school_id: 'int', exam_question_id: 'int', position: 'int', title: 'text', correct: 'boolean' },
    optionRows,
  );
  await insertRows(
    tx,
    'exam_question_assertions',
    { school_id: 'int', option_id: 'int', side: 'exam_question_assertion_side', text: 'text' },
    assertionRows,
  );
}

/**
 * Removes an activity's questions before they are replaced (options and assertions go with them).
 * Answered questions are kept: replacing them would silently delete what students answered.
 */
export async function removeQuestions(tx: Queryable, activityId: number): Promise<void> {
  // Locked first: an answer being written to one of them commits before the check below sees it,
  // and one written after waits for this transaction (then finds its question gone).
  const ofActivity = () => tx.select({ id: examQuestions.id }).from(examQuestions).where(eq(examQuestions.activityId, activityId));
  const locked = await ofActivity().for('update');
  if (locked.length === 0) return;
  const [answered] = await tx
    .select({ id: examQuestionAnswers.id })
    .from(examQuestionAnswers)
    .where(inArray(examQuestionAnswers.examQuestionId, ofActivity()))
    .limit(1);
  if (answered)
    throw new UserErrors([
      userError(
        'examQuestionsAttributes',
        'in_use',
        'cannot replace questions that students have answered: delete their exam question answers first',
      ),
    ]);
  await tx.delete(examQuestions).where(eq(examQuestions.activityId, activityId));
}
