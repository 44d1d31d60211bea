import { ApiError } from '@/lib/api-client';

/** What a refused write says: the server's message, else each problem, else the code. */
export function writeError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Could not reach the server. Please try again.';
  if (typeof error.body.message === 'string') return error.body.message;
  const problems = error.body.problems as Array<{ message: string }> | undefined;
  if (problems?.length) return problems.map((problem) => problem.message).join(' ');
  return error.code ?? `HTTP ${error.status}`;
}
