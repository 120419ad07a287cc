// The renderer's stylesheets parse as CSS: a lost brace (a merge, a hurried edit) silently swallows
// every rule after it in the browser, which no other test notices.
import fs from 'node:fs';
import path from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';

const dir = path.resolve('src-renderer');
const sheets = fs.readdirSync(dir).filter((f) => f.endsWith('.css'));

describe('renderer stylesheets', () => {
  it.each(sheets)('%s parses, with every rule at the top level or inside an at-rule', (file) => {
    const root = postcss.parse(fs.readFileSync(path.join(dir, file), 'utf8'), { from: file });
    root.walkRules((rule) => {
      // A rule nested in a rule means a brace was lost above it (we write no CSS nesting).
      expect(
        rule.parent?.type === 'root' || rule.parent?.type === 'atrule',
        `${file}:${rule.source?.start?.line} ${rule.selector}`,
      ).toBe(true);
    });
  });

  it('dims every kind of button when it is disabled, and gives it no hover (Undo with nothing to undo looked enabled)', () => {
    const root = postcss.parse(fs.readFileSync(path.join(dir, 'styles.css'), 'utf8'));
    const declarations = (selector: string) => {
      const found = new Map<string, string>();
      root.walkRules((rule) => {
        if (rule.parent?.type === 'root' && rule.selectors.includes(selector))
          rule.walkDecls((decl) => void found.set(decl.prop, decl.value));
      });
      return found;
    };
    for (const button of ['.button', '.button-quiet', '.icon-button']) {
      const disabled = declarations(`${button}:disabled`);
      expect(disabled.get('opacity'), button).toBe('0.5');
      expect(disabled.get('cursor'), button).toBe('default');
    }
    expect(declarations('.button-quiet:hover').size).toBe(0);
    expect(declarations('.button-quiet:hover:not(:disabled)').get('background')).toBe('var(--accent-soft)');
  });

  it('finds the stylesheets', () => {
    expect(sheets).toContain('styles.css');
  });
});
