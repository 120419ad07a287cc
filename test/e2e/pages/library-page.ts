import fsp from 'node:fs/promises';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export class LibraryPage {
  readonly dropZone: Locator;
  readonly search: Locator;
  readonly connection: Locator;
  readonly rows: Locator;
  readonly hits: Locator;

  constructor(readonly page: Page) {
    this.dropZone = page.getByTestId('drop-zone');
    this.search = page.getByTestId('search-input');
    this.connection = page.getByTestId('connection-indicator');
    this.rows = page.getByTestId('transcription-row');
    this.hits = page.getByTestId('search-hit');
  }

  async goto(url: string) {
    await this.page.goto(url);
    await expect(this.dropZone).toBeVisible();
  }

  async openTab(name: 'Library' | 'Dictionaries' | 'Settings') {
    await this.page.getByRole('navigation').getByRole('button', { name }).click();
  }

  /** Drops a real file from disk onto the drop zone, as a user dragging it from the file manager. */
  async dropFile(filePath: string, type = 'audio/wav') {
    await this.dropFiles([filePath], type);
  }

  /** Drops several files from disk in one drag, as a user selecting them together in the file manager. */
  async dropFiles(filePaths: string[], type = 'audio/wav') {
    const files = await Promise.all(
      filePaths.map(async (filePath) => ({
        name: path.basename(filePath),
        base64: (await fsp.readFile(filePath)).toString('base64'),
      })),
    );
    const dataTransfer = await this.page.evaluateHandle(
      ({ files, type }) => {
        const transfer = new DataTransfer();
        for (const { name, base64 } of files) {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          transfer.items.add(new File([bytes], name, { type }));
        }
        return transfer;
      },
      { files, type },
    );
    await this.dropZone.dispatchEvent('dragenter', { dataTransfer });
    await this.dropZone.dispatchEvent('dragover', { dataTransfer });
    await this.dropZone.dispatchEvent('drop', { dataTransfer });
  }

  upload(fileName: string): Locator {
    return this.page.getByTestId('upload-item').filter({ hasText: fileName });
  }

  row(name: string): Locator {
    return this.page.getByRole('button', { name: `Open ${name}` });
  }

  async expectOffline() {
    await expect(this.connection).toHaveAttribute('data-online', 'false');
    await expect(this.connection).toContainText('Offline');
  }
}
