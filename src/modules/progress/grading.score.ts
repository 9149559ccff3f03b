/**
 * The scoring rule of attempts, one for the automatic scoring at submission (progress.write.ts) and
 * for grading by hand (grading.write.ts). Each gradable question counts one, whatever its points: its
 * credit is 1 or 0 for a question with correct options (answered exactly right or not), and the
 * points given over the question's points for an open answer graded by hand. The score is the
 * percent of the credit, rounded; null when nothing is gradable.
 */
export function scoreOf(credits: readonly number[]): { correctCount: number; gradableCount: number; score: number | null } {
  const gradableCount = credits.length;
  const correctCount = credits.filter((c) => c >= 1).length;
  const total = credits.reduce((sum, c) => sum + c, 0);
  return { correctCount, gradableCount, score: gradableCount ? Math.round((100 * total) / gradableCount) : null };
}

/** An attempt passes when its score is at least the exam lesson's minGrade (a percent), or when nothing in it is gradable. */
export const passes = (score: number | null, minGrade: number | null): boolean => score === null || score >= (minGrade ?? 0);
