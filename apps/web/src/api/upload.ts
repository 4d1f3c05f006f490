import { storedKey } from './session';
import type { UploadResult } from './types';

export const UPLOADABLE = /\.(md|markdown|txt|text|html|htm|pdf)$/i;

/**
 * Uploads one file into a collection as multipart/form-data, reporting progress (fetch cannot report
 * upload progress; XMLHttpRequest can). Resolves with what ingestion did; rejects with the API's message.
 */
export function uploadDocument(collectionId: string, file: File, onProgress: (fraction: number) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1/collections/${collectionId}/documents`);
    const key = storedKey();
    if (key) xhr.setRequestHeader('authorization', `Bearer ${key}`);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { message?: string } & Partial<UploadResult> = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: the status says enough
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as UploadResult);
      } else reject(new Error(body.message ?? `Upload failed (HTTP ${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted (network error)'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
