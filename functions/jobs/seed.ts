/**
 * Deploy-time seed: a CDK trigger runs it once the table exists, and again whenever this
 * function's code changes (the program content is bundled into it). The loader is idempotent.
 */
export const handler = async () => {
  const { seedProgramContent } = await import('../program/seed-content');
  return seedProgramContent();
};
