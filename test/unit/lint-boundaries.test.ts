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
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
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

  it('reports a relative import that does not resolve, so none can slip past the boundaries', async () => {
    const errors = await boundaryErrors(
      'web/src/features/auth/boundary-probe.ts',
      "import { nothing } from '../missing/file';\nexport const probe = nothing;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/^import-x\/no-unresolved: /)]);
  });
});
