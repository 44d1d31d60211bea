/**
 * The program's weeks and module titles as the landing page shows them. The content files are
 * the source; they are too large to ship on the first page a visitor opens, so this outline is
 * kept beside them and a test (test/unit/program-outline.test.ts) fails the moment the two differ.
 */
export interface OutlineWeek {
  week: number;
  title: string;
  modules: string[];
}

export const PROGRAM_OUTLINE: OutlineWeek[] = [
  { week: 1, title: 'Know your strengths and target roles', modules: ['Know your strengths', 'Choose your target roles'] },
  {
    week: 2,
    title: 'A résumé and profile that get interviews',
    modules: ['Write achievement bullets', 'Build a tailored résumé', 'Strengthen your online profile'],
  },
  { week: 3, title: 'Search and networking', modules: ['Run a focused search', 'Network with purpose'] },
  {
    week: 4,
    title: 'Interviews, offers and the first 90 days',
    modules: ['Prepare for interviews', 'Evaluate and negotiate offers', 'Plan your first 90 days'],
  },
];
