import { consumeInTransaction, type DomainEvent } from '../events/events.js';
import { notify } from './notification.notify.js';

/**
 * The notifications the domain's events cause, written through notify() in the events' own
 * transaction (events/events.ts' consumeInTransaction): the producers import no notification, and
 * a grading rolled back notifies no one. Each event carries what its text needs.
 */
type Graded = Extract<DomainEvent, { name: 'attempt.graded' }>;

consumeInTransaction('notifications', async (tx, events) => {
  const graded = events.filter((e): e is Graded => e.name === 'attempt.graded');
  const bySchool = new Map<number, Graded[]>();
  for (const e of graded) bySchool.set(e.schoolId, [...(bySchool.get(e.schoolId) ?? []), e]);
  for (const [schoolId, group] of bySchool)
    await notify(
      tx,
      schoolId,
      group.map(({ subjectId, payload: p }) => {
        const result = `${p.score === null ? '' : `${p.score}%, `}${p.passed ? 'passed' : 'not passed'}`;
        return { userId: p.studentId, text: `Your answers to "${p.activityTitle}" were graded: ${result}`, url: `/activity_attempts/${subjectId}` };
      }),
    );
});
