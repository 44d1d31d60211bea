import { PROGRAM_LIMITS, SAFE_LINK_SCHEMES, TASK_KINDS, type ContentProblem } from '@shared/program-authoring';
import { badRequest } from '../../lib/errors';
import { contentProblems, parseProgramContent, type ProgramContent } from '../content';

/**
 * Content an administrator submits (a draft save or an import) is checked here before anything
 * is written: lengths and counts within PROGRAM_LIMITS, task kinds the learner page shows, no
 * raw HTML and only http(s)/mailto links in the text (the learner page renders text only, so
 * this keeps what an author writes and what a learner sees the same), then the content schema
 * and rules every version follows (content.ts). The answer is 400 with the first problem's code
 * as `error` and every problem in `problems`.
 */
type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

// A Markdown link target, an autolink or a bare URL: the scheme is what matters.
const LINK_TARGET = /\]\(\s*<?([^)\s>]*)|<([a-z][a-z0-9+.-]*:[^>\s]*)>|\b([a-z][a-z0-9+.-]*):\/\//gi;
const SCRIPT_SCHEMES = /\b(javascript|vbscript|data|file):/i;
const HTML = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>|<!--/i;

function linkProblem(text: string): string | null {
  if (SCRIPT_SCHEMES.test(text)) return `a ${SCRIPT_SCHEMES.exec(text)![1].toLowerCase()}: link`;
  for (const match of text.matchAll(LINK_TARGET)) {
    const target = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1] ?? (match[3] || null);
    // a relative target ("](/path)" or "](#part)") leads nowhere on the learner page
    if (!scheme) return `a link without http(s) or mailto (${target || 'empty'})`;
    if (!(SAFE_LINK_SCHEMES as readonly string[]).includes(scheme.toLowerCase())) return `a ${scheme}: link`;
  }
  return null;
}

class ProblemList {
  readonly items: ContentProblem[] = [];
  add(path: string, code: string, message: string) {
    if (this.items.length < 50) this.items.push({ path, code, message });
  }
  /** A text field: present, within its limit, no HTML, safe links. */
  text(path: string, value: unknown, max: number, { optional = false } = {}) {
    if (typeof value !== 'string') return; // the schema reports the wrong type
    if (!optional && !value.trim()) this.add(path, 'empty_field', `${path} is empty.`);
    if (value.length > max) this.add(path, 'field_too_long', `${path} is longer than ${max} characters.`);
    if (HTML.test(value)) this.add(path, 'raw_html', `${path} contains HTML; write plain text or Markdown.`);
    const link = linkProblem(value);
    if (link) this.add(path, 'unsafe_link', `${path} has ${link}; links must start with http://, https:// or mailto:.`);
  }
}

function checkModule(problems: ProblemList, module: Node, path: string) {
  problems.text(`${path}.module_id`, module.module_id, PROGRAM_LIMITS.idChars);
  problems.text(`${path}.slug`, module.slug, PROGRAM_LIMITS.idChars);
  problems.text(`${path}.title`, module.title, PROGRAM_LIMITS.titleChars);
  problems.text(`${path}.summary`, module.summary, PROGRAM_LIMITS.summaryChars);
  const sections = listOf(module.sections);
  if (sections.length > PROGRAM_LIMITS.sectionsPerModule)
    problems.add(`${path}.sections`, 'too_many_sections', `${path} has more than ${PROGRAM_LIMITS.sectionsPerModule} sections.`);
  sections.filter(isNode).forEach((section, s) => {
    problems.text(`${path}.sections[${s}].heading`, section.heading, PROGRAM_LIMITS.headingChars);
    const body = listOf(section.body);
    if (body.length > PROGRAM_LIMITS.blocksPerSection)
      problems.add(
        `${path}.sections[${s}].body`,
        'field_too_long',
        `${path}.sections[${s}] has more than ${PROGRAM_LIMITS.blocksPerSection} blocks.`,
      );
    body.forEach((block, b) => {
      for (const [i, text] of (Array.isArray(block) ? block : [block]).entries())
        problems.text(`${path}.sections[${s}].body[${b}]${Array.isArray(block) ? `[${i}]` : ''}`, text, PROGRAM_LIMITS.blockChars);
    });
  });
  const tasks = listOf(module.tasks);
  if (tasks.length > PROGRAM_LIMITS.tasksPerModule)
    problems.add(`${path}.tasks`, 'too_many_tasks', `${path} has more than ${PROGRAM_LIMITS.tasksPerModule} tasks.`);
  tasks.filter(isNode).forEach((task, t) => {
    const where = `${path}.tasks[${t}]`;
    if (typeof task.type === 'string' && !(TASK_KINDS as readonly string[]).includes(task.type))
      problems.add(`${where}.type`, 'unknown_task_kind', `${where} has kind "${task.type}"; use ${TASK_KINDS.join(' or ')}.`);
    problems.text(`${where}.task_id`, task.task_id, PROGRAM_LIMITS.idChars);
    problems.text(`${where}.label`, task.label, PROGRAM_LIMITS.labelChars);
    problems.text(`${where}.hint`, task.hint, PROGRAM_LIMITS.hintChars, { optional: true });
  });
}

/** Every problem of `raw` (empty = it can be stored as a draft and published). */
export function authoringProblems(raw: unknown, programId: string): ContentProblem[] {
  const problems = new ProblemList();
  if (!isNode(raw)) return [{ path: 'content', code: 'invalid_content', message: 'content must be a JSON object.' }];
  if (raw.program_id !== programId)
    problems.add('program_id', 'program_mismatch', `program_id must be "${programId}" (content of another program cannot be imported).`);
  problems.text('title', raw.title, PROGRAM_LIMITS.titleChars);
  problems.text('description', raw.description, PROGRAM_LIMITS.summaryChars);
  const weeks = listOf(raw.weeks).filter(isNode);
  const modules = weeks.flatMap((week) => listOf(week.modules));
  if (modules.length > PROGRAM_LIMITS.modules)
    problems.add('weeks', 'too_many_modules', `The program has ${modules.length} modules; at most ${PROGRAM_LIMITS.modules}.`);
  weeks.forEach((week, w) => {
    problems.text(`weeks[${w}].title`, week.title, PROGRAM_LIMITS.titleChars);
    problems.text(`weeks[${w}].summary`, week.summary, PROGRAM_LIMITS.summaryChars);
    const inWeek = listOf(week.modules);
    if (inWeek.length > PROGRAM_LIMITS.modulesPerWeek)
      problems.add(`weeks[${w}].modules`, 'too_many_modules', `Week ${w + 1} has more than ${PROGRAM_LIMITS.modulesPerWeek} modules.`);
    inWeek.filter(isNode).forEach((module, m) => checkModule(problems, module, `weeks[${w}].modules[${m}]`));
  });
  if (problems.items.length) return problems.items;
  const parsed = parseProgramContent(raw);
  if (!parsed.success)
    return parsed.issues.map((issue) => ({ path: issue.path || 'content', code: 'invalid_content', message: issue.message }));
  return contentProblems(parsed.data!).map((message) => ({ path: 'content', code: 'invalid_content', message }));
}

/** The content, validated; 400 with the first problem's code otherwise. */
export function validContent(raw: unknown, programId: string): ProgramContent {
  const problems = authoringProblems(raw, programId);
  if (problems.length) throw badRequest(problems[0].code, { problems });
  return parseProgramContent(raw).data as ProgramContent;
}
