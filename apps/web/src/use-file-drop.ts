import { type DragEvent, useState } from 'react';

const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Files dragged over an element and dropped on it: whether some are over it now (`dragging`), and the
 * handlers to spread on it (none when `enabled` is false; `disabled` ignores drops while it lasts).
 */
export function useFileDrop({
  enabled,
  disabled,
  onFiles,
}: {
  enabled: boolean;
  disabled: boolean;
  onFiles: (files: Iterable<File>) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const handlers = enabled
    ? {
        onDragOver: (e: DragEvent) => {
          if (!hasFiles(e) || disabled) return;
          e.preventDefault();
          setDragging(true);
        },
        onDragLeave: (e: DragEvent) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        },
        onDrop: (e: DragEvent) => {
          setDragging(false);
          if (!hasFiles(e) || disabled) return;
          e.preventDefault();
          onFiles(e.dataTransfer.files);
        },
      }
    : {};
  return { dragging, handlers };
}
