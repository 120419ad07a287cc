import { expect, type Locator, type Page } from '@playwright/test';

export class DictionariesPage {
  readonly editor: Locator;
  readonly wordsTable: Locator;
  readonly replacementRulesTable: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByTestId('dictionary-editor');
    this.wordsTable = page.getByTestId('words-table');
    this.replacementRulesTable = page.getByTestId('replacement-rules-table');
  }

  async create(name: string) {
    await this.page.getByLabel('New dictionary name').fill(name);
    await this.page.getByRole('button', { name: 'Create dictionary' }).click();
    await expect(this.editor.getByLabel('Dictionary name')).toHaveValue(name);
  }

  async select(name: string) {
    await this.page.getByTestId('dictionary-item').filter({ hasText: name }).click();
    await expect(this.editor.getByLabel('Dictionary name')).toHaveValue(name);
  }

  async addWord(word: string, reading = '') {
    await this.page.getByTestId('word-input').fill(word);
    await this.page.getByTestId('reading-input').fill(reading);
    await this.page.getByTestId('word-input').press('Enter');
  }

  async addReplacementRule(pattern: string, replacement: string) {
    await this.page.getByTestId('pattern-input').fill(pattern);
    await this.page.getByTestId('replacement-input').fill(replacement);
    await this.page.getByTestId('pattern-input').press('Enter');
  }
}
