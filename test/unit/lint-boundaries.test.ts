import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of eslint.config.js (docs/architecture.md#lint-and-format) against
 * files that would sit in the tree: a wrong import must be reported, a right one must not. Each
 * case lints in-memory source under a real path and imports real files, so the rule's path
 * resolution is exercised as in `npm run lint`; if the resolver or a zone stopped matching, the
 * "reported" cases fail.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

// Only the import rules: the type-aware rules would build the whole TypeScript program per run.
// no-cycle parses the whole import graph behind a file, so it runs only in the cycle cases.
const linter = (rules: (ruleId: string) => boolean) =>
  new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => rules(ruleId),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
const eslint = linter((ruleId) => ruleId.startsWith('import-x/') && ruleId !== 'import-x/no-cycle');
const cycleLinter = linter((ruleId) => ruleId === 'import-x/no-cycle');

async function boundaryErrors(filePath: string, code: string, using = eslint): Promise<string[]> {
  const [result] = await using.lintText(code, { filePath: `${root}/${filePath}` });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const restricted = (path: string): unknown => expect.stringMatching(new RegExp(`^import-x/no-restricted-paths: Unexpected path "${path}"`));

describe('import boundaries (eslint.config.js)', () => {
  // Loading the config and its plugins is the slow part: once, outside the cases' timeouts.
  beforeAll(() => eslint.calculateConfigForFile(`${root}/web/src/main.tsx`), 60_000);

  it('reports a web feature that imports another feature, by relative path', async () => {
    const errors = await boundaryErrors(
      'web/src/features/admin-users/components/boundary-probe.tsx',
      "import { paths } from '../../../config/paths';\nimport * as login from '../../auth/api/login';\nexport const probe = [paths, login];\n",
    );
    expect(errors).toEqual([restricted('../../auth/api/login')]);
  });

  it('lets a feature import its own files and the SPA shared code', async () => {
    const errors = await boundaryErrors(
      'web/src/features/auth/components/boundary-probe.tsx',
      "import { paths } from '../../../config/paths';\nimport * as login from '../api/login';\nexport const probe = [paths, login];\n",
    );
    expect(errors).toEqual([]);
  });

  it('reports a feature that imports the app layer, and shared SPA code that imports a feature', async () => {
    expect(
      await boundaryErrors(
        'web/src/features/program/boundary-probe.ts',
        "import { routes } from '../../app/router';\nexport const probe = routes;\n",
      ),
    ).toEqual([restricted('../../app/router')]);
    expect(
      await boundaryErrors(
        'web/src/lib/boundary-probe.ts',
        "import * as login from '../features/auth/api/login';\nexport const probe = login;\n",
      ),
    ).toEqual([restricted('../features/auth/api/login')]);
  });

  it('reports web importing functions and functions importing web', async () => {
    expect(
      await boundaryErrors(
        'web/src/lib/boundary-probe.ts',
        "import { readConfig } from '../../../functions/lib/config';\nexport const probe = readConfig;\n",
      ),
    ).toEqual([restricted('../../../functions/lib/config')]);
    expect(
      await boundaryErrors(
        'functions/lib/boundary-probe.ts',
        "import { paths } from '../../web/src/config/paths';\nexport const probe = paths;\n",
      ),
    ).toEqual([restricted('../../web/src/config/paths')]);
  });

  it('reports Lambda code that imports infra/, but lets its tests read an operator script', async () => {
    const code =
      "import { commonPasswordList } from '../../infra/ops/generate-common-passwords';\nexport const probe = commonPasswordList;\n";
    expect(await boundaryErrors('functions/accounts/boundary-probe.ts', code)).toEqual([
      restricted('../../infra/ops/generate-common-passwords'),
    ]);
    expect(await boundaryErrors('functions/accounts/boundary-probe.test.ts', code)).toEqual([]);
  });

  it('reports shared/ importing functions, web, infra or test', async () => {
    for (const target of ['../functions/lib/config', '../web/src/config/paths', '../infra/app', '../test/helpers/api']) {
      expect(await boundaryErrors('shared/boundary-probe.ts', `import * as probe from '${target}';\nexport { probe };\n`)).toEqual([
        restricted(target),
      ]);
    }
    expect(await boundaryErrors('shared/boundary-probe.ts', "import { ROUTES } from './routes';\nexport const probe = ROUTES;\n")).toEqual(
      [],
    );
  });

  it('reports functions/lib importing a domain, and lets a domain import functions/lib', async () => {
    for (const target of ['../accounts/passwords', '../admin/user-list', '../program/content', '../groups/auth']) {
      expect(await boundaryErrors('functions/lib/boundary-probe.ts', `import * as probe from '${target}';\nexport { probe };\n`)).toEqual([
        restricted(target),
      ]);
    }
    expect(
      await boundaryErrors(
        'functions/program/boundary-probe.ts',
        "import { config } from '../lib/config';\nexport const probe = config;\n",
      ),
    ).toEqual([]);
  });

  it('reports accounts importing admin or program, and program importing admin', async () => {
    for (const target of ['../admin/user-status', '../program/progress-snapshot']) {
      expect(
        await boundaryErrors('functions/accounts/boundary-probe.ts', `import * as probe from '${target}';\nexport { probe };\n`),
      ).toEqual([restricted(target)]);
    }
    expect(
      await boundaryErrors(
        'functions/program/authoring/boundary-probe.ts',
        "import * as probe from '../../admin/audit-log';\nexport { probe };\n",
      ),
    ).toEqual([restricted('../../admin/audit-log')]);
  });

  it('lets program import accounts, and admin import both', async () => {
    expect(
      await boundaryErrors('functions/program/boundary-probe.ts', "import * as probe from '../accounts/passwords';\nexport { probe };\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'functions/admin/boundary-probe.ts',
        "import * as accounts from '../accounts/user-mutation';\nimport * as program from '../program/content';\nexport const probe = [accounts, program];\n",
      ),
    ).toEqual([]);
  });

  // The graph behind http.ts is parsed on the first case: a timeout for that, not a speed check.
  it('reports an import cycle, but not a type-only import that closes one', { timeout: 60_000 }, async () => {
    // functions/lib/http.ts imports ./config: a config.ts that imports http.ts would close a cycle.
    const probe = (code: string) => boundaryErrors('functions/lib/config.ts', code, cycleLinter);
    expect(await probe("import { defineRoute } from './http';\nexport const probe = defineRoute;\n")).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: /),
    ]);
    expect(await probe("import type { ApiRequest } from './http';\nexport type Probe = ApiRequest;\n")).toEqual([]);
  });

  it('reports a relative import that does not resolve, so none can slip past the boundaries', async () => {
    const errors = await boundaryErrors(
      'web/src/features/auth/boundary-probe.ts',
      "import { nothing } from '../missing/file';\nexport const probe = nothing;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/^import-x\/no-unresolved: /)]);
  });
});
