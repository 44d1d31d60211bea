import type { ModuleDetail } from '@shared/program-types';

/** Reading at a relaxed 200 words a minute; written tasks take longer than ticking a box. */
const WORDS_PER_MINUTE = 200;
const TEXT_TASK_MINUTES = 10;
const CHECKBOX_TASK_MINUTES = 5;

/** A module's time estimate in minutes (reading + tasks), rounded up to 5. */
export function estimateMinutes(module: Pick<ModuleDetail, 'sections' | 'tasks' | 'summary'>): number {
  const text = [module.summary, ...module.sections.map((section) => `${section.heading} ${section.body}`)].join(' ');
  const words = text.split(/\s+/).filter(Boolean).length;
  const tasks = module.tasks.reduce((sum, task) => sum + (task.type === 'text' ? TEXT_TASK_MINUTES : CHECKBOX_TASK_MINUTES), 0);
  const minutes = words / WORDS_PER_MINUTE + tasks;
  return Math.max(5, Math.ceil(minutes / 5) * 5);
}

export function formatEstimate(minutes: number): string {
  if (minutes < 60) return `About ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `About ${hours} h ${rest} min` : `About ${hours} h`;
}
