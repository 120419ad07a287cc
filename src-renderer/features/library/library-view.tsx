import { useT } from '../../i18n/use-t';
import { selectIsSearching, useLibraryStore } from '../../stores/library-store';
import { SpeechModelOffer } from '../settings/speech-model-offer';
import { DropZone } from './drop-zone';
import { FolderImportNote } from './folder-import-note';
import { LibraryToolbar } from './library-toolbar';
import { RecordPanel } from './record-panel';
import { SearchResults } from './search-results';
import { TranscriptionList } from './transcription-list';
import { UploadOptionsForm } from './upload-options-form';
import { UploadsPanel } from './uploads-panel';

export function LibraryView() {
  const t = useT();
  const searching = useLibraryStore(selectIsSearching);
  return (
    <div className="library">
      <h1 className="visually-hidden">{t('library.heading')}</h1>
      <SpeechModelOffer />
      <section className="upload-area" aria-label={t('library.uploads.heading')}>
        <DropZone />
        <UploadOptionsForm />
        <FolderImportNote />
        <UploadsPanel />
      </section>
      <LibraryToolbar />
      {searching ? <SearchResults /> : <TranscriptionList />}
      <RecordPanel />
    </div>
  );
}
