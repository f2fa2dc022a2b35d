import { useEffect, useState } from 'react';
import type { Output } from '../api.ts';
import { FileIcon } from '../icons.tsx';
import { fileSize as size } from './file-size.ts';

const TEXT = /^(text\/|application\/json)/;
const IMAGE = /^image\/(png|jpeg|gif|webp|avif)$/;

/** A file: a download link with name, type and size, and a preview for images and text. */
export function FileView({ output, url }: { output: Output; url: (inline: boolean) => string }) {
  const mediaType = String(output.mediaType ?? 'application/octet-stream');
  const [preview, setPreview] = useState<string>();
  useEffect(() => {
    if (!TEXT.test(mediaType)) return;
    let live = true;
    fetch(url(true))
      .then((r) => (r.ok ? r.text() : undefined))
      .then(
        (text) =>
          live && text !== undefined && setPreview(text.length > 2000 ? `${text.slice(0, 2000)}\n…` : text),
      )
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [mediaType, url]);
  return (
    <div className="file-card">
      <div className="file-head">
        <span className="file-icon">
          <FileIcon />
        </span>
        <a href={url(false)} download={String(output.name)}>
          {String(output.name)}
        </a>
        <span className="file-meta">
          {mediaType} · {size(Number(output.size ?? 0))}
          {output.origin === 'upload' ? ' · uploaded' : ''}
        </span>
      </div>
      {IMAGE.test(mediaType) && <img className="file-preview" src={url(true)} alt={String(output.name)} />}
      {preview !== undefined && <pre className="file-preview">{preview}</pre>}
    </div>
  );
}
