import { useRef, useState, type DragEvent } from 'react';
import { UPLOADABLE, uploadDocument } from '../../api/upload';

interface FileState {
  id: number;
  name: string;
  size: number;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'error';
  message: string;
}

/**
 * Drag-and-drop (or pick) documents into a collection: one request per file, each with its own progress
 * bar and its own result or error, so one bad file does not stop the others.
 */
export function DocumentUpload({ collectionId, onUploaded }: { collectionId: string; onUploaded: () => void }) {
  const [files, setFiles] = useState<FileState[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);

  const update = (id: number, patch: Partial<FileState>) => setFiles((all) => all.map((f) => (f.id === id ? { ...f, ...patch } : f)));

  const add = async (list: FileList | File[]) => {
    const batch = [...list].map((file) => ({ file, id: nextId.current++ }));
    setFiles((all) => [
      ...all,
      ...batch.map(({ file, id }) => ({
        id,
        name: file.name,
        size: file.size,
        progress: 0,
        state: 'waiting' as const,
        message: 'Waiting',
      })),
    ]);
    for (const { file, id } of batch) {
      if (!UPLOADABLE.test(file.name)) {
        update(id, { state: 'error', message: 'Not a supported type: use .md, .txt, .html or .pdf' });
        continue;
      }
      if (file.size === 0) {
        update(id, { state: 'error', message: 'The file is empty' });
        continue;
      }
      update(id, { state: 'uploading', message: 'Uploading' });
      try {
        const result = await uploadDocument(collectionId, file, (p) => update(id, { progress: p }));
        const failed = result.failed[0];
        if (failed) update(id, { state: 'error', message: failed.reason });
        else
          update(id, {
            state: 'done',
            progress: 1,
            message:
              result.ingested > 0
                ? 'Stored'
                : result.updated > 0
                  ? 'Updated'
                  : result.duplicates > 0
                    ? 'Duplicate of a stored document'
                    : 'Unchanged',
          });
        onUploaded();
      } catch (err) {
        update(id, { state: 'error', message: err instanceof Error ? err.message : 'Upload failed' });
      }
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length > 0) void add(e.dataTransfer.files);
  };

  return (
    <div className="upload">
      <div
        className={`dropzone${over ? ' over' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop documents here (.md, .txt, .html, .pdf), or</p>
        <button type="button" onClick={() => input.current?.click()}>
          Choose files…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          className="visually-hidden"
          aria-label="Documents to upload"
          tabIndex={-1}
          onChange={(e) => {
            if (e.target.files) void add(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
      {files.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {files.map((f) => (
            <li key={f.id} className={`upload-${f.state}`} data-file={f.name}>
              <span className="file-name">{f.name}</span>
              <progress max={1} value={f.progress} aria-label={`Upload progress of ${f.name}`} />
              <span className="file-state" role={f.state === 'error' ? 'alert' : undefined}>
                {f.message}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
