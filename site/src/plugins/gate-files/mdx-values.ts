// What an MDX expression shows in the page, for its Markdown twin: `{7 * 3 + 2}` reads "23",
// as the HTML does, not blank. An expression is evaluated from its own syntax tree (which
// remark-mdx's parser attaches) with the page's `export const` values and front matter as
// its names; one that is not a plain value (a component, a function, a name the page does
// not define) shows nothing, as before.
import { evaluate } from 'eval-estree-expression';

/** The syntax tree remark-mdx attaches to an expression or an `import`/`export` block. */
interface Program {
  type: 'Program';
  body: { type: string; expression?: unknown; declaration?: Declaration | null }[];
}

interface Declaration {
  type: string;
  kind?: string;
  declarations?: { id: { type: string; name?: string }; init?: unknown }[];
}

type Values = Record<string, unknown>;

const shown = (value: unknown): string | null =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint'
    ? String(value)
    : null;

/** The value of one expression with `values` as its names, or undefined when it is no plain value. */
function valueOf(expression: unknown, values: Values): unknown {
  try {
    return evaluate.sync(expression, values, { functions: false, strict: false });
  } catch {
    return undefined;
  }
}

/**
 * The values a page defines for its expressions: each `export const NAME = …` whose value
 * is plain data (strings, numbers, arrays and objects of them), in order, each seeing the
 * ones before it, and the page's front matter as `frontMatter`.
 */
export function pageValues(esm: readonly (Program | undefined)[], frontMatter: Values = {}): Values {
  const values: Values = { frontMatter };
  for (const program of esm)
    for (const statement of program?.body ?? []) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : null;
      if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
      for (const declarator of declaration.declarations ?? []) {
        if (declarator.id.type !== 'Identifier' || !declarator.id.name || declarator.init === undefined) continue;
        const value = valueOf(declarator.init, values);
        if (value !== undefined && typeof value !== 'function') values[declarator.id.name] = value;
      }
    }
  return values;
}

/** The text an expression's tree shows, or null (a comment, a component, anything but a plain value). */
export function expressionText(program: Program | undefined, values: Values): string | null {
  const [statement, ...rest] = program?.body ?? [];
  if (statement?.type !== 'ExpressionStatement' || rest.length > 0) return null;
  return shown(valueOf(statement.expression, values));
}
